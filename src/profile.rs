//! The availability profile: free processors over future time, as a step function.
//!
//! Every backfilling policy plans with it: running jobs occupy `[start, planned end)`,
//! reservations occupy `[reserved start, reserved start + planned runtime)`. Intervals are
//! half-open, so a job that ends exactly when a reservation starts does not delay it.
//! This is pyss's "CPU snapshot", kept as a sorted vector of breakpoints.

/// One step of the profile: from `time` until the next point, `free` processors are free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    time: i64,
    free: i64,
}

/// Free processors over time from `origin` on; beyond the last point the last value holds.
#[derive(Debug)]
pub struct Profile {
    capacity: i64,
    /// The points are `buf[first..]`. The past is dropped by moving `first` on, and a point
    /// inserted or removed near the front moves the points before it into the room there, so
    /// neither moves the whole profile; the dead prefix is cut off once it outgrows the rest.
    buf: Vec<Point>,
    first: usize,
    /// Points with fewer than no processors free (overbooked: a job ran past its plan). While
    /// there are none, every booking still fits where it is without looking.
    overbooked: usize,
}

impl Clone for Profile {
    fn clone(&self) -> Self {
        Profile { capacity: self.capacity, buf: self.points().to_vec(), first: 0, overbooked: self.overbooked }
    }

    /// Copies `source` into the storage this profile already has.
    fn clone_from(&mut self, source: &Self) {
        self.capacity = source.capacity;
        self.buf.clear();
        self.buf.extend_from_slice(source.points());
        self.first = 0;
        self.overbooked = source.overbooked;
    }
}

impl Profile {
    /// An empty machine of `capacity` processors, from time `origin`.
    pub fn new(capacity: u32, origin: i64) -> Self {
        Profile {
            capacity: capacity as i64,
            buf: vec![Point { time: origin, free: capacity as i64 }],
            first: 0,
            overbooked: 0,
        }
    }

    /// The live points, from the origin on.
    fn points(&self) -> &[Point] {
        &self.buf[self.first..]
    }

    /// The live points, to change their values in place.
    fn points_mut(&mut self) -> &mut [Point] {
        &mut self.buf[self.first..]
    }

    /// Inserts `p` at live index `i`, moving whichever side of it is shorter when there is
    /// room before the first point.
    fn insert(&mut self, i: usize, p: Point) {
        let len = self.buf.len() - self.first;
        if self.first > 0 && i < len - i {
            let f = self.first;
            self.buf.copy_within(f..f + i, f - 1);
            self.first -= 1;
            self.buf[self.first + i] = p;
        } else {
            self.buf.insert(self.first + i, p);
        }
    }

    /// Removes the point at live index `i` (never the origin's), moving the shorter side.
    fn remove(&mut self, i: usize) {
        let len = self.buf.len() - self.first;
        if i < len - i {
            let f = self.first;
            self.buf.copy_within(f..f + i, f + 1);
            self.first += 1;
        } else {
            self.buf.remove(self.first + i);
        }
    }

    /// Machine size.
    pub fn capacity(&self) -> i64 {
        self.capacity
    }

    /// Number of breakpoints (a measure of planning cost).
    pub fn len(&self) -> usize {
        self.points().len()
    }

    /// Always false: a profile has at least its origin point.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Index of the step that holds time `t` (t at or after the origin). Most questions are
    /// about now, the first step, which is answered without a search.
    fn step_at(&self, t: i64) -> usize {
        match self.points().get(1) {
            Some(p) if p.time <= t => self.points().partition_point(|p| p.time <= t) - 1,
            _ => 0,
        }
    }

    /// Forgets the past: the profile starts at `now` afterwards.
    pub fn advance(&mut self, now: i64) {
        let keep = self.points().partition_point(|p| p.time <= now);
        if keep > 1 {
            self.overbooked -= self.points()[..keep - 1].iter().filter(|p| p.free < 0).count();
            self.first += keep - 1;
            if self.first >= 64 && self.first >= self.buf.len() - self.first {
                self.buf.drain(..self.first);
                self.first = 0;
            }
        }
        let f = self.first;
        if self.buf[f].time < now {
            self.buf[f].time = now;
        }
    }

    /// Free processors at time `t` (t at or after the origin).
    pub fn free_at(&self, t: i64) -> i64 {
        self.points()[self.step_at(t)].free
    }

    /// Free processors at the origin ("now").
    pub fn free_now(&self) -> i64 {
        self.points()[0].free
    }

    /// Whether `procs` processors are free during `[start, start + dur)`.
    pub fn fits(&self, start: i64, procs: i64, dur: i64) -> bool {
        let end = start + dur.max(1);
        let i = self.step_at(start);
        self.points()[i..].iter().take_while(|p| p.time < end).all(|p| p.free >= procs)
    }

    /// Earliest time at or after the origin when `procs` processors are free for `dur` seconds;
    /// `None` if the job is wider than the machine ever frees.
    pub fn earliest(&self, procs: i64, dur: i64) -> Option<i64> {
        self.earliest_from(self.points()[0].time, procs, dur)
    }

    /// Earliest time at or after `from` when `procs` processors are free for `dur` seconds
    /// (an advance reservation asked for `from`); `None` as for [`Profile::earliest`].
    pub fn earliest_from(&self, from: i64, procs: i64, dur: i64) -> Option<i64> {
        let dur = dur.max(1);
        let pts = self.points();
        let mut i = self.step_at(from);
        'candidates: while i < pts.len() {
            if pts[i].free < procs {
                i += 1;
                continue;
            }
            let start = pts[i].time.max(from);
            let end = start + dur;
            let mut j = i + 1;
            while j < pts.len() && pts[j].time < end {
                if pts[j].free < procs {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            return Some(start);
        }
        None
    }

    /// Moves a booking of `procs` processors for `dur` seconds from `start` to the earliest
    /// slot, which is never later: conservative backfilling's compression, as releasing the
    /// booking and placing it again would, without touching the profile when it stays.
    /// Returns the new start, or `None` (nothing changed) when the booking no longer fits at
    /// `start` (or `start` is before the origin), where the caller must place it afresh.
    pub fn compress(&mut self, start: i64, procs: i64, dur: i64) -> Option<i64> {
        let dur = dur.max(1);
        let origin = self.points()[0].time;
        if start < origin {
            return None;
        }
        let own_end = start + dur;
        let pts = self.points();
        // Free processors of a step with this booking given up: it covers the steps that begin
        // inside it; a step that begins before `start` is only tested on its part before it.
        let free = |p: &Point| if p.time >= start && p.time < own_end { p.free + procs } else { p.free };
        let mut i = 0;
        let mut earlier = None;
        'candidates: while i < pts.len() && pts[i].time < start {
            if free(&pts[i]) < procs {
                i += 1;
                continue;
            }
            let end = pts[i].time + dur;
            let mut j = i + 1;
            while j < pts.len() && pts[j].time < end {
                if free(&pts[j]) < procs {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            earlier = Some(pts[i].time);
            break;
        }
        match earlier {
            Some(t) => {
                // Only the parts of the two slots that do not overlap change.
                self.add(t, start.min(t + dur), -procs);
                self.add((t + dur).max(start), own_end, procs);
                Some(t)
            }
            None => {
                // Given up, the booking leaves `free + procs` over its span: it still fits there
                // unless something else now overlaps it.
                let stays = self.overbooked == 0 || {
                    let k = self.step_at(start);
                    pts[k..].iter().take_while(|p| p.time < own_end).all(|p| p.free >= 0)
                };
                stays.then_some(start)
            }
        }
    }

    /// Index of the point starting exactly at `t`, inserting one if needed.
    fn split(&mut self, t: i64) -> usize {
        let pts = self.points();
        if t <= pts[0].time {
            return 0;
        }
        let i = pts.partition_point(|p| p.time < t);
        if i < pts.len() && pts[i].time == t {
            return i;
        }
        // t is after the origin here, so i >= 1.
        let free = pts[i - 1].free;
        self.overbooked += (free < 0) as usize;
        self.insert(i, Point { time: t, free });
        i
    }

    /// Adds `delta` free processors during `[start, end)` (negative to occupy them).
    fn add(&mut self, start: i64, end: i64, delta: i64) {
        let start = start.max(self.points()[0].time);
        if end <= start {
            return;
        }
        let a = self.split(start);
        let b = self.split(end);
        let mut overbooked = self.overbooked;
        for p in &mut self.points_mut()[a..b] {
            let was = p.free < 0;
            p.free += delta;
            // Counted as it changes side of zero.
            overbooked = overbooked + (p.free < 0) as usize - was as usize;
        }
        self.overbooked = overbooked;
        // Merge equal neighbours at the two edges so the profile stays small.
        let pts = self.points();
        if b < pts.len() && pts[b].free == pts[b - 1].free {
            self.overbooked -= (pts[b].free < 0) as usize;
            self.remove(b);
        }
        let pts = self.points();
        if a > 0 && pts[a].free == pts[a - 1].free {
            self.overbooked -= (pts[a].free < 0) as usize;
            self.remove(a);
        }
    }

    /// Occupies `procs` processors during `[start, start + dur)`.
    pub fn reserve(&mut self, start: i64, procs: i64, dur: i64) {
        self.add(start, start + dur.max(1), -procs);
    }

    /// Frees `procs` processors during `[start, start + dur)` (the inverse of [`Profile::reserve`]).
    pub fn release(&mut self, start: i64, procs: i64, dur: i64) {
        self.add(start, start + dur.max(1), procs);
    }

    /// The breakpoints as `(time, free)` pairs, for tests and charts.
    pub fn steps(&self) -> Vec<(i64, i64)> {
        self.points().iter().map(|p| (p.time, p.free)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_release_roundtrip_merges_points() {
        let mut p = Profile::new(10, 0);
        p.reserve(0, 4, 100);
        p.reserve(50, 6, 100);
        assert_eq!(p.steps(), vec![(0, 6), (50, 0), (100, 4), (150, 10)]);
        p.release(50, 6, 100);
        p.release(0, 4, 100);
        assert_eq!(p.steps(), vec![(0, 10)]);
    }

    #[test]
    fn earliest_respects_half_open_intervals() {
        let mut p = Profile::new(10, 0);
        p.reserve(0, 10, 100); // machine full until 100
        p.reserve(200, 10, 50); // and again 200..250
        assert_eq!(p.earliest(5, 100), Some(100)); // ends exactly at 200: fits
        assert_eq!(p.earliest(5, 101), Some(250));
        assert_eq!(p.earliest(11, 1), None);
        assert!(p.fits(100, 10, 100));
        assert!(!p.fits(100, 10, 101));
        assert_eq!(p.earliest_from(120, 5, 80), Some(120));
        assert_eq!(p.earliest_from(120, 5, 81), Some(250));
        assert_eq!(p.earliest_from(50, 1, 1), Some(100));
        assert_eq!(p.earliest_from(400, 10, 1), Some(400));
    }

    #[test]
    fn compress_takes_a_gap_of_exactly_its_length() {
        let mut p = Profile::new(10, 0);
        p.reserve(0, 8, 100);
        p.reserve(150, 10, 150);
        p.reserve(300, 5, 50);
        // The gap from 100 to 150 has all 10 processors: exactly long enough.
        assert_eq!(p.compress(300, 5, 50), Some(100));
        assert_eq!(p.steps(), vec![(0, 2), (100, 5), (150, 0), (300, 10)]);
        // One second longer, it fits nowhere before 300 (the run from 300 is its own).
        let mut p = Profile::new(10, 0);
        p.reserve(0, 8, 100);
        p.reserve(150, 10, 150);
        p.reserve(300, 5, 51);
        assert_eq!(p.compress(300, 5, 51), Some(300));
    }

    #[test]
    fn advance_drops_the_past() {
        let mut p = Profile::new(8, 0);
        p.reserve(0, 8, 10);
        p.reserve(10, 3, 10);
        p.advance(15);
        assert_eq!(p.steps(), vec![(15, 5), (20, 8)]);
        assert_eq!(p.free_at(19), 5);
        assert_eq!(p.free_at(20), 8);
    }

    /// The step function as (time, free) at every breakpoint of either profile.
    fn same_steps(a: &Profile, b: &Profile) -> bool {
        let mut times: Vec<i64> = a.points().iter().chain(b.points()).map(|p| p.time).collect();
        times.sort_unstable();
        times.iter().all(|&t| a.free_at(t) == b.free_at(t))
    }

    proptest::proptest! {
        /// The count of overbooked points follows every change, and a booking whose span is
        /// overbooked is not kept where it is.
        #[test]
        fn overbooked_points_are_counted(
            ops in proptest::collection::vec((0u8..3, 0i64..100, 1i64..12, 1i64..60), 1..40),
        ) {
            let mut p = Profile::new(10, 0);
            let mut booked: Vec<(i64, i64, i64)> = Vec::new();
            let mut now = 0;
            for (op, t, procs, dur) in ops {
                match op {
                    // Booked whether it fits or not, as a job that ran past its plan is.
                    0 => {
                        p.reserve(now + t, procs, dur);
                        booked.push((now + t, procs, dur));
                    }
                    1 => {
                        if let Some((s, procs, dur)) = booked.pop() {
                            p.release(s, procs, dur);
                        }
                    }
                    _ => {
                        now += t / 4;
                        p.advance(now);
                    }
                }
                proptest::prop_assert_eq!(p.overbooked, p.points().iter().filter(|x| x.free < 0).count());
                if let Some(&(s, procs, dur)) = booked.last() {
                    let over = (s.max(now)..s + dur).any(|t| p.free_at(t) < 0);
                    let mut q = p.clone();
                    if s >= now && over && q.compress(s, procs, dur) == Some(s) {
                        proptest::prop_assert!(false, "kept an overbooked booking at {}", s);
                    }
                }
            }
        }

        /// Bookings given and taken back while time moves on leave the free processors of
        /// every second as a count per second does; the points stay sorted and merged.
        #[test]
        fn steps_follow_a_count_per_second(
            ops in proptest::collection::vec((0u8..4, 0i64..60, 1i64..6, 1i64..50), 1..80),
        ) {
            let mut p = Profile::new(10, 0);
            // Time moves on at most 19 s an op: every booking ends before 1,800.
            let mut model = vec![10i64; 1800];
            let mut booked: Vec<(i64, i64, i64)> = Vec::new();
            let mut now = 0;
            for (op, t, procs, dur) in ops {
                match op {
                    0 | 1 => {
                        p.reserve(now + t, procs, dur);
                        model[(now + t) as usize..(now + t + dur) as usize].iter_mut().for_each(|f| *f -= procs);
                        booked.push((now + t, procs, dur));
                    }
                    2 => {
                        if !booked.is_empty() {
                            let (s, procs, dur) = booked.remove(t as usize % booked.len());
                            p.release(s, procs, dur);
                            let from = s.max(now);
                            model[from as usize..(s + dur).max(from) as usize].iter_mut().for_each(|f| *f += procs);
                        }
                    }
                    _ => {
                        now += t / 3;
                        p.advance(now);
                    }
                }
                for s in now..now + 120 {
                    proptest::prop_assert_eq!(p.free_at(s), model[s as usize], "second {}", s);
                }
                let pts = p.points();
                proptest::prop_assert!(pts.windows(2).all(|w| w[0].time < w[1].time && w[0].free != w[1].free));
            }
        }

        /// The searches agree with asking every second: a slot fits if every second of it has
        /// room, and the earliest is the first second from which one fits.
        #[test]
        fn searches_agree_with_every_second(
            bookings in proptest::collection::vec((0i64..80, 1i64..12, 1i64..40), 0..24),
            from in 0i64..100,
            procs in 1i64..11,
            dur in 1i64..30,
        ) {
            let mut p = Profile::new(10, 0);
            // Booked wherever asked, overbooked or not, as jobs that ran past their plans are.
            for &(s, q, d) in &bookings {
                p.reserve(s, q, d);
            }
            let fits = |s: i64| (s..s + dur).all(|t| p.free_at(t) >= procs);
            for s in 0..120 {
                proptest::prop_assert_eq!(p.fits(s, procs, dur), fits(s), "fits at {}", s);
            }
            // Past every booking the machine is empty, so a slot that fits nowhere before does there.
            let want = (from..200).find(|&s| fits(s));
            proptest::prop_assert_eq!(p.earliest_from(from, procs, dur), want);
        }

        /// Compression gives what giving up the booking and placing it again gives.
        #[test]
        fn compress_is_release_and_earliest(
            bookings in proptest::collection::vec((1i64..9, 1i64..120), 1..14),
            pick in 0usize..14,
            ended in proptest::collection::vec((0usize..14, 0i64..120), 0..5),
            now in 0i64..60,
        ) {
            // Place every booking at its earliest, as reservations are made, then end some of
            // them early (their tails are freed) and move time on: the others may now move.
            let mut p = Profile::new(10, 0);
            let mut placed = Vec::new();
            for &(procs, dur) in &bookings {
                let s = p.earliest(procs, dur).unwrap();
                p.reserve(s, procs, dur);
                placed.push((s, procs, dur));
            }
            let pick = pick % placed.len();
            for &(which, cut) in &ended {
                let which = which % placed.len();
                let (s, procs, dur) = placed[which];
                if which != pick && cut < dur {
                    p.release(s + cut, procs, dur - cut);
                    placed[which].2 = cut;
                }
            }
            p.advance(now);
            let (s, procs, dur) = placed[pick];
            let mut reference = p.clone();
            let mut moved = p.clone();
            let got = moved.compress(s, procs, dur);
            for q in [&p, &moved] {
                proptest::prop_assert_eq!(q.overbooked, q.points().iter().filter(|x| x.free < 0).count());
            }
            if s >= now {
                reference.release(s, procs, dur);
                let want = reference.earliest(procs, dur).unwrap();
                reference.reserve(want, procs, dur);
                proptest::prop_assert_eq!(got, Some(want));
                proptest::prop_assert!(same_steps(&moved, &reference));
            } else {
                proptest::prop_assert_eq!(got, None);
            }
        }
    }
}
