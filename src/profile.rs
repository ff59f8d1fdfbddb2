//! The availability profile: free processors over future time, as a step function.
//!
//! Every backfilling policy plans with it: running jobs occupy `[start, planned end)`,
//! reservations occupy `[reserved start, reserved start + planned runtime)`. Intervals are
//! half-open, so a job that ends exactly when a reservation starts does not delay it. (A
//! policy without reservations plans nothing ahead: its running jobs hold their processors
//! until it gives them back, [`Profile::hold`].) This is pyss's "CPU snapshot".
//!
//! It is kept as the free processors at the origin and a sorted vector of the changes after
//! it: a booking is two changes (its processors taken at its start, given back at its end),
//! so booking and releasing never rewrite the steps in between, and the questions (does a job
//! fit, where does it fit first) read the steps in time order, adding the changes up as they
//! go.

/// The index of the first of `pts` at or after `t`.
fn partition(pts: &[Point], t: i64) -> usize {
    pts.partition_point(|p| p.time < t)
}

/// One change of the profile: from `time` on, `delta` more processors are free than just
/// before (fewer when negative). Never zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    time: i64,
    delta: i64,
}

/// Free processors over time from `origin` on; after the last change the last count holds.
#[derive(Debug)]
pub struct Profile {
    capacity: i64,
    /// The first step begins here ("now").
    origin: i64,
    /// Free processors in the first step, until the first change.
    base: i64,
    /// The changes, all after the origin, are `buf[first..]`. The past is dropped by moving
    /// `first` on, and a change inserted or removed near the front moves the ones before it
    /// into the room there, so neither moves the whole profile; the dead prefix is cut off
    /// once it outgrows the rest.
    buf: Vec<Point>,
    first: usize,
    /// Changes that take processors. While there are none the free count never falls after
    /// the origin, so a job fits wherever its first second does.
    falls: usize,
    /// Known that no step has fewer than no processors free (none is overbooked: no job ran
    /// past its plan into another's booking). A booking or a hold may break it; giving
    /// processors back, dropping the past and a compression's move keep it.
    clean: bool,
    /// Changes so far, the past dropped into the origin's count among them.
    edits: u64,
}

impl Clone for Profile {
    fn clone(&self) -> Self {
        Profile {
            capacity: self.capacity,
            origin: self.origin,
            base: self.base,
            buf: self.points().to_vec(),
            first: 0,
            falls: self.falls,
            clean: self.clean,
            edits: self.edits,
        }
    }

    /// Copies `source` into the storage this profile already has.
    fn clone_from(&mut self, source: &Self) {
        self.capacity = source.capacity;
        self.origin = source.origin;
        self.base = source.base;
        self.buf.clear();
        self.buf.extend_from_slice(source.points());
        self.first = 0;
        self.falls = source.falls;
        self.clean = source.clean;
        self.edits = source.edits;
    }
}

impl Profile {
    /// An empty machine of `capacity` processors, from time `origin`.
    pub fn new(capacity: u32, origin: i64) -> Self {
        Profile {
            capacity: capacity as i64,
            origin,
            base: capacity as i64,
            buf: Vec::new(),
            first: 0,
            falls: 0,
            clean: true,
            edits: 0,
        }
    }

    /// The live changes, after the origin.
    fn points(&self) -> &[Point] {
        &self.buf[self.first..]
    }

    /// Inserts `p` at live index `i`, moving whichever side of it is shorter when there is
    /// room before the first change.
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

    /// Removes the change at live index `i`, moving the shorter side.
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

    /// Number of steps (a measure of planning cost).
    pub fn len(&self) -> usize {
        self.points().len() + 1
    }

    /// Always false: a profile has at least the step at its origin.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Forgets the past: the profile starts at `now` afterwards.
    pub fn advance(&mut self, now: i64) {
        if now <= self.origin {
            return;
        }
        self.origin = now;
        // The changes now past are added into the origin's count one by one anyway, so they
        // are found by walking from the front.
        let pts = self.points();
        let (mut base, mut falls, mut dead) = (self.base, self.falls, 0);
        while let Some(p) = pts.get(dead).filter(|p| p.time <= now) {
            base += p.delta;
            falls -= (p.delta < 0) as usize;
            dead += 1;
        }
        if dead > 0 {
            (self.base, self.falls) = (base, falls);
            self.edits += 1;
            self.first += dead;
            if self.first >= 64 && self.first >= self.buf.len() - self.first {
                self.buf.drain(..self.first);
                self.first = 0;
            }
        }
    }

    /// Free processors at time `t` (t at or after the origin).
    pub fn free_at(&self, t: i64) -> i64 {
        self.step_at(t).0
    }

    /// The step holding time `t`: its free processors, and the index of the first change after
    /// it, from which a question goes on reading.
    #[inline]
    fn step_at(&self, t: i64) -> (i64, usize) {
        let pts = self.points();
        let mut free = self.base;
        let mut i = 0;
        while i < pts.len() && pts[i].time <= t {
            free += pts[i].delta;
            i += 1;
        }
        (free, i)
    }

    /// EASY's extra processors (Tsafrir et al., note 5): when no change after the origin takes
    /// processors but at `shadow` (the shadow time, where the one reservation begins), the free
    /// processors there, so that a job of `procs` fits now for `dur` seconds exactly when
    /// `procs` fit now and, if it outlives the shadow time, fit in these too. `None` when some
    /// other change takes processors, where only [`Profile::fits`] can tell.
    pub fn extra_at(&self, shadow: i64) -> Option<i64> {
        // Every other change gives processors back, so the free count only rises, but at
        // `shadow`: the fewest free over a span from the origin are at its first second, or at
        // the shadow time if it reaches it.
        let (free, i) = self.step_at(shadow);
        let falls_there = i > 0 && self.points()[i - 1].time == shadow && self.points()[i - 1].delta < 0;
        (self.falls == falls_there as usize).then_some(free)
    }

    /// Whether no change after the origin takes processors: from now on the free count only rises.
    pub fn rises_only(&self) -> bool {
        self.falls == 0
    }

    /// Free processors at the origin ("now").
    pub fn free_now(&self) -> i64 {
        self.base
    }

    /// Whether `procs` processors are free during `[start, start + dur)`.
    pub fn fits(&self, start: i64, procs: i64, dur: i64) -> bool {
        let end = start + dur.max(1);
        let pts = self.points();
        let (mut free, mut i) = self.step_at(start);
        if free < procs {
            return false;
        }
        if self.falls == 0 {
            return true;
        }
        while i < pts.len() && pts[i].time < end {
            free += pts[i].delta;
            if free < procs {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Earliest time at or after the origin when `procs` processors are free for `dur` seconds;
    /// `None` if the job is wider than the machine ever frees.
    pub fn earliest(&self, procs: i64, dur: i64) -> Option<i64> {
        self.earliest_from(self.origin, procs, dur)
    }

    /// Earliest time at or after `from` when `procs` processors are free for `dur` seconds
    /// (an advance reservation asked for `from`); `None` as for [`Profile::earliest`].
    pub fn earliest_from(&self, from: i64, procs: i64, dur: i64) -> Option<i64> {
        let dur = dur.max(1);
        let mut start = from.max(self.origin);
        let pts = self.points();
        let (mut free, mut i) = self.step_at(start);
        loop {
            // To the next step with room: a slot may begin there.
            while free < procs {
                let p = pts.get(i)?;
                free += p.delta;
                start = p.time;
                i += 1;
            }
            if self.falls == 0 {
                return Some(start);
            }
            // Its run of steps with room must last `dur` seconds.
            loop {
                match pts.get(i) {
                    Some(p) if p.time < start + dur => {
                        free += p.delta;
                        i += 1;
                        if free < procs {
                            break;
                        }
                    }
                    _ => return Some(start),
                }
            }
        }
    }

    /// Moves a booking of `procs` processors for `dur` seconds from `start` to the earliest
    /// slot, which is never later: conservative backfilling's compression, as releasing the
    /// booking and placing it again would, without touching the profile when it stays.
    /// Returns the new start, or `None` (nothing changed) when the booking no longer fits at
    /// `start` (or `start` is before the origin), where the caller must place it afresh.
    // Inlined: conservative backfilling asks it of every reservation at most passes, and most
    // answers take a few steps, so the call itself was a good part of their cost.
    #[inline]
    pub fn compress(&mut self, start: i64, procs: i64, dur: i64) -> Option<i64> {
        let dur = dur.max(1);
        if start < self.origin {
            return None;
        }
        let own_end = start + dur;
        let pts = self.points();
        let mut free = self.base;
        let mut i = 0;
        // A slot may begin only at a step before `start`: at the origin or at a change, whose
        // index it keeps, as it keeps the first change at or after `start` once it passes it.
        let mut slot = self.origin;
        let mut slot_at = None;
        let mut start_at = None;
        let earlier = 'search: loop {
            // On to the next step with room.
            while free < procs {
                match pts.get(i) {
                    Some(p) if p.time < start => {
                        free += p.delta;
                        slot = p.time;
                        slot_at = Some(i);
                        i += 1;
                    }
                    _ => break 'search None,
                }
            }
            if slot >= start {
                break None;
            }
            // Its run of steps with room must last `dur` seconds. The steps that begin inside
            // the booking's own span have its processors back: room there is any count not
            // below zero, and a step without it there is overbooked, which every later slot
            // would meet too.
            loop {
                match pts.get(i) {
                    Some(p) if p.time < slot + dur => {
                        free += p.delta;
                        if p.time >= start {
                            // With no step overbooked, the rest of the span has room too.
                            if self.clean {
                                start_at = Some(i);
                                i += partition(&pts[i..], slot + dur);
                                break 'search Some(slot);
                            }
                            start_at.get_or_insert(i);
                            if free < 0 {
                                return None;
                            }
                        } else if free < procs {
                            i += 1;
                            continue 'search;
                        }
                        i += 1;
                    }
                    _ => break 'search Some(slot),
                }
            }
        };
        if let Some(t) = earlier {
            // The four changes in falling time order: each leaves the index where an earlier
            // time goes as the search found it. `i` is where the slot's end goes.
            let end_at = i;
            let start_at = start_at.unwrap_or_else(|| end_at + partition(&pts[end_at..], start));
            let own_end_at = start_at + partition(&pts[start_at..], own_end);
            self.change_at(own_end_at, own_end, -procs);
            if t + dur > start {
                self.change_at(end_at, t + dur, procs);
                self.change_at(start_at, start, procs);
            } else {
                self.change_at(start_at, start, procs);
                self.change_at(end_at, t + dur, procs);
            }
            match slot_at {
                Some(k) => self.change_at(k, t, -procs),
                None => self.add_base(-procs),
            }
            return Some(t);
        }
        // Given up, the booking leaves its processors over its span: it still fits there unless
        // a step it overlaps (the one holding `start`, and those beginning inside it) is
        // overbooked with it in. Most of the time no step is, which one look at every step
        // tells until the next booking.
        if !self.clean {
            let mut f = self.base;
            self.clean = f >= 0
                && pts.iter().all(|p| {
                    f += p.delta;
                    f >= 0
                });
        }
        if self.clean {
            return Some(start);
        }
        // Still booked there, it fits if no step of its span is below zero.
        self.fits(start, 0, dur).then_some(start)
    }

    /// Changes the free processors by `delta` from `t` on.
    fn change(&mut self, t: i64, delta: i64) {
        if t <= self.origin {
            self.add_base(delta);
            return;
        }
        let i = partition(self.points(), t);
        self.change_at(i, t, delta);
    }

    /// [`Profile::change`] at `t` after the origin, where `i` is the index of the first change
    /// at or after `t`. Changes at later times leave that index where it is.
    fn change_at(&mut self, i: usize, t: i64, delta: i64) {
        self.edits += 1;
        match self.points().get(i) {
            Some(p) if p.time == t => {
                let (was, now) = (p.delta, p.delta + delta);
                self.falls = self.falls + (now < 0) as usize - (was < 0) as usize;
                if now == 0 {
                    self.remove(i);
                } else {
                    self.buf[self.first + i].delta = now;
                }
            }
            _ => {
                self.falls += (delta < 0) as usize;
                self.insert(i, Point { time: t, delta });
            }
        }
    }

    /// Adds `delta` free processors during `[start, end)` (negative to occupy them).
    fn add(&mut self, start: i64, end: i64, delta: i64) {
        let start = start.max(self.origin);
        if end <= start || delta == 0 {
            return;
        }
        self.change(start, delta);
        self.change(end, -delta);
    }

    /// Occupies `procs` processors during `[start, start + dur)`.
    pub fn reserve(&mut self, start: i64, procs: i64, dur: i64) {
        self.clean = false;
        self.add(start, start + dur.max(1), -procs);
    }

    /// Frees `procs` processors during `[start, start + dur)` (the inverse of [`Profile::reserve`]).
    pub fn release(&mut self, start: i64, procs: i64, dur: i64) {
        self.add(start, start + dur.max(1), procs);
    }

    /// Takes `procs` processors from now on with no planned end, for a policy that never plans
    /// ahead (no reservations): it only asks what fits now, so it keeps no changes and hands
    /// the processors back itself ([`Profile::give_back`]).
    pub fn hold(&mut self, procs: i64) {
        self.clean = false;
        self.add_base(-procs);
    }

    /// Gives back processors taken with [`Profile::hold`].
    pub fn give_back(&mut self, procs: i64) {
        self.add_base(procs);
    }

    /// Changes the free processors at the origin (and so at every time) by `delta`.
    fn add_base(&mut self, delta: i64) {
        self.base += delta;
        self.edits += 1;
    }

    /// How many times the profile has changed so far, dropping the past among them: while this
    /// stays the same, the steps are the same, though the origin may have moved on inside the
    /// first.
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// The steps as `(time, free)` pairs, for tests and charts.
    pub fn steps(&self) -> Vec<(i64, i64)> {
        let mut free = self.base;
        let mut steps = vec![(self.origin, free)];
        steps.extend(self.points().iter().map(|p| {
            free += p.delta;
            (p.time, free)
        }));
        steps
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

    /// A 10-processor profile with `bookings` (processors, seconds) placed each at its earliest,
    /// as reservations are made, then some of them ended early as `ended` says (which, after how
    /// many seconds; never `spare`), their tails given back. Returns it with the bookings as
    /// they stand (start, processors, seconds).
    fn placed_then_ended(
        bookings: &[(i64, i64)],
        ended: &[(usize, i64)],
        spare: Option<usize>,
    ) -> (Profile, Vec<(i64, i64, i64)>) {
        let mut p = Profile::new(10, 0);
        let mut placed = Vec::new();
        for &(procs, dur) in bookings {
            let s = p.earliest(procs, dur).unwrap();
            p.reserve(s, procs, dur);
            placed.push((s, procs, dur));
        }
        for &(which, cut) in ended {
            let which = which % placed.len();
            let (s, procs, dur) = placed[which];
            if Some(which) != spare && cut < dur {
                p.release(s + cut, procs, dur - cut);
                placed[which].2 = cut;
            }
        }
        (p, placed)
    }

    /// The step function as (time, free) at every breakpoint of either profile.
    fn same_steps(a: &Profile, b: &Profile) -> bool {
        let mut times: Vec<i64> = a.steps().iter().chain(&b.steps()).map(|s| s.0).collect();
        times.sort_unstable();
        times.iter().all(|&t| a.free_at(t) == b.free_at(t))
    }

    proptest::proptest! {
        /// EASY's rule (fits now, and ends by the shadow time or fits in the extra processors)
        /// answers as the profile's walk whenever [`Profile::extra_at`] answers, and it answers
        /// whenever the only booking ahead is the one at the shadow time, with the extra
        /// processors found before booking it when no change after now took processors then.
        #[test]
        fn the_shadow_rule_answers_as_the_profile(
            running in proptest::collection::vec((1i64..6, 1i64..40), 0..8),
            (at, procs, dur) in (0i64..30, 1i64..11, 1i64..40),
            other in proptest::option::of((1i64..40, 1i64..6, 1i64..40)),
            now in 0i64..10,
        ) {
            // Running jobs (overbooked, some of them, as jobs past their plan are), then the
            // reservation, and perhaps another booking ahead.
            let mut p = Profile::new(10, 0);
            for &(procs, dur) in &running {
                p.reserve(0, procs, dur);
            }
            p.advance(now);
            let shadow = now + at;
            // Unbooked, as EASY holds it while the profile only rises, it has the same extra
            // processors.
            let beside = p.rises_only().then(|| p.free_at(shadow) - procs);
            p.reserve(shadow, procs, dur);
            if let Some(extra) = beside {
                proptest::prop_assert_eq!(p.extra_at(shadow), Some(extra));
            }
            if let Some((t, procs, dur)) = other {
                p.reserve(now + t, procs, dur);
            }
            match p.extra_at(shadow) {
                Some(extra) => {
                    for q in 1..=10 {
                        for d in 1..80 {
                            let rule = q <= p.free_now() && (now + d <= shadow || q <= extra);
                            proptest::prop_assert_eq!(rule, p.fits(now, q, d), "{} processors for {} s", q, d);
                        }
                    }
                }
                None => proptest::prop_assert!(other.is_some()),
            }
        }

        /// The count of changes that take processors follows every change, and a booking whose
        /// span is overbooked is not kept where it is.
        #[test]
        fn falls_are_counted_and_overbooked_bookings_move(
            ops in proptest::collection::vec((0u8..4, 0i64..100, 1i64..12, 1i64..60), 1..40),
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
                    // Compressed in place: moved, kept, or given up to be placed afresh.
                    2 => {
                        if let Some((s, procs, dur)) = booked.pop() {
                            match p.compress(s, procs, dur) {
                                Some(moved) => booked.push((moved, procs, dur)),
                                None => p.release(s, procs, dur),
                            }
                        }
                    }
                    _ => {
                        now += t / 4;
                        p.advance(now);
                    }
                }
                proptest::prop_assert_eq!(p.falls, p.points().iter().filter(|x| x.delta < 0).count());
                proptest::prop_assert!(!p.clean || p.steps().iter().all(|s| s.1 >= 0), "clean but overbooked");
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
                proptest::prop_assert!(pts.windows(2).all(|w| w[0].time < w[1].time));
                proptest::prop_assert!(pts.iter().all(|x| x.time > now && x.delta != 0));
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

        /// Compressing every booking in turn, as conservative backfilling does after jobs end
        /// early, gives at each turn what giving up the booking and placing it again gives,
        /// with the profile carrying over from one turn to the next.
        #[test]
        fn compressions_in_turn_are_releases_and_earliest(
            bookings in proptest::collection::vec((1i64..9, 1i64..120), 1..14),
            ended in proptest::collection::vec((0usize..14, 0i64..120), 0..5),
            now in 0i64..60,
        ) {
            let (mut p, mut placed) = placed_then_ended(&bookings, &ended, None);
            p.advance(now);
            for (turn, booking) in placed.iter_mut().enumerate() {
                let (s, procs, dur) = *booking;
                if s + dur <= now {
                    continue;
                }
                let mut reference = p.clone();
                let got = p.compress(s, procs, dur);
                if s < now {
                    proptest::prop_assert_eq!(got, None);
                    continue;
                }
                reference.release(s, procs, dur);
                let want = reference.earliest(procs, dur).unwrap();
                reference.reserve(want, procs, dur);
                proptest::prop_assert_eq!(got, Some(want), "turn {}", turn);
                proptest::prop_assert!(same_steps(&p, &reference), "turn {}", turn);
                let pts = p.points();
                proptest::prop_assert!(pts.windows(2).all(|w| w[0].time < w[1].time));
                proptest::prop_assert!(pts.iter().all(|x| x.time > p.origin && x.delta != 0));
                proptest::prop_assert_eq!(p.falls, pts.iter().filter(|x| x.delta < 0).count());
                booking.0 = want;
            }
        }

        /// Compression gives what giving up the booking and placing it again gives.
        #[test]
        fn compress_is_release_and_earliest(
            bookings in proptest::collection::vec((1i64..9, 1i64..120), 1..14),
            pick in 0usize..14,
            ended in proptest::collection::vec((0usize..14, 0i64..120), 0..5),
            now in 0i64..60,
        ) {
            // Every booking placed, some others ended early, and time moved on: the picked
            // booking may now move.
            let pick = pick % bookings.len();
            let (mut p, placed) = placed_then_ended(&bookings, &ended, Some(pick));
            p.advance(now);
            let (s, procs, dur) = placed[pick];
            let mut reference = p.clone();
            let mut moved = p.clone();
            let got = moved.compress(s, procs, dur);
            for q in [&p, &moved] {
                proptest::prop_assert_eq!(q.falls, q.points().iter().filter(|x| x.delta < 0).count());
                let pts = q.points();
                proptest::prop_assert!(pts.windows(2).all(|w| w[0].time < w[1].time));
                proptest::prop_assert!(pts.iter().all(|x| x.time > q.origin && x.delta != 0));
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
