//! The heap bytes each thread holds, counted by the global allocator, so `schedlab bench` can
//! give every simulation its own peak memory even while several run at once on other threads.
//! Blocks of 1 MiB and more are mapped here on transparent huge pages (module `big`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each thread's live bytes and their peak.
pub struct Counting;

thread_local! {
    // Signed: a thread may free what another allocated (the count then dips below its start).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grow(by: isize) {
    // `try_with`: during a thread's teardown the counters may already be gone.
    let _ = LIVE.try_with(|live| {
        // Wrapping: a thread's count drifts as far as the blocks it frees for other threads,
        // and an allocator must never panic over it.
        let now = live.get().wrapping_add(by);
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: small blocks are passed straight to the system allocator and large ones to
// `big` (below), chosen by the size of the layout, which Rust hands back unchanged when it
// frees or resizes a block; the counting touches only thread-local cells, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if big::takes(layout) { big::map(layout.size()) } else { unsafe { System.alloc(layout) } };
        if !p.is_null() {
            grow(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Fresh mappings are zeroed by the kernel.
        let p = if big::takes(layout) { big::map(layout.size()) } else { unsafe { System.alloc_zeroed(layout) } };
        if !p.is_null() {
            grow(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if big::takes(layout) {
            unsafe { big::unmap(ptr, layout.size()) };
        } else {
            unsafe { System.dealloc(ptr, layout) };
        }
        grow(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid layout for `new_size` with the same alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let p = match (big::takes(layout), big::takes(new_layout)) {
            (false, false) => unsafe { System.realloc(ptr, layout, new_size) },
            (true, true) => unsafe { big::remap(ptr, layout.size(), new_size) },
            _ => {
                // Across the threshold: a new block of the other kind, then a copy.
                let q = unsafe { self.alloc(new_layout) };
                if !q.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    // `alloc` and `dealloc` counted the two blocks already.
                    return q;
                }
                q
            }
        };
        if !p.is_null() {
            grow(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Large blocks (a simulation's per-job arrays, the parsed trace, the decompressed text),
/// mapped from the kernel in whole 2 MiB huge pages and advised as candidates for transparent
/// huge pages: filled, they take one page fault per 2 MiB where 4 KiB pages take 512, and a
/// whole `schedlab run HPC2N --policy easy` takes 0.17 s instead of 0.20 s (docs/PERFORMANCE.md).
/// Where the kernel has no transparent huge pages the advice is refused and the block is used
/// as it is.
#[cfg(target_os = "linux")]
mod big {
    use std::alloc::Layout;

    /// The size of a transparent huge page on x86-64 and most arm64 kernels.
    const HUGE: usize = 2 << 20;

    /// Whether a block of this layout is mapped here rather than by the system allocator:
    /// 1 MiB or more, aligned to no more than a page (a block [`remap`] moves keeps only
    /// page alignment).
    pub fn takes(layout: Layout) -> bool {
        layout.size() >= HUGE / 2 && layout.align() <= 4096
    }

    /// A new zeroed block of at least `size` bytes on a huge-page boundary, or null.
    pub fn map(size: usize) -> *mut u8 {
        let len = size.next_multiple_of(HUGE);
        // One huge page more than needed, so a boundary falls inside; the rest is given back.
        // SAFETY: an anonymous private mapping touches no existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len + HUGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        let at = p as usize;
        let start = at.next_multiple_of(HUGE);
        // SAFETY: both ranges lie inside the mapping just made and outside the block returned.
        unsafe {
            if start > at {
                libc::munmap(p, start - at);
            }
            if at + HUGE > start {
                libc::munmap((start + len) as *mut libc::c_void, at + HUGE - start);
            }
            libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        start as *mut u8
    }

    /// Gives back a block of `size` bytes made by [`map`] or [`remap`].
    ///
    /// # Safety
    /// `p` and `size` must be those of a live block from this module.
    pub unsafe fn unmap(p: *mut u8, size: usize) {
        unsafe { libc::munmap(p as *mut libc::c_void, size.next_multiple_of(HUGE)) };
    }

    /// Resizes a block of `old` bytes at `p` to `new` bytes, moving it if need be (the kernel
    /// moves its pages, not their contents); null if it cannot.
    ///
    /// # Safety
    /// `p` and `old` must be those of a live block from this module.
    pub unsafe fn remap(p: *mut u8, old: usize, new: usize) -> *mut u8 {
        let (old_len, new_len) = (old.next_multiple_of(HUGE), new.next_multiple_of(HUGE));
        if old_len == new_len {
            return p;
        }
        let q = unsafe { libc::mremap(p as *mut libc::c_void, old_len, new_len, libc::MREMAP_MAYMOVE) };
        if q == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        q as *mut u8
    }
}

/// Elsewhere every block comes from the system allocator.
#[cfg(not(target_os = "linux"))]
mod big {
    use std::alloc::Layout;

    /// No block is mapped here.
    pub fn takes(_layout: Layout) -> bool {
        false
    }
    /// Never called: [`takes`] takes nothing.
    pub fn map(_size: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
    /// Never called: [`takes`] takes nothing.
    pub unsafe fn unmap(_p: *mut u8, _size: usize) {}
    /// Never called: [`takes`] takes nothing.
    pub unsafe fn remap(_p: *mut u8, _old: usize, _new: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
}

/// Starts a measurement on this thread: the peak becomes the bytes held now.
pub fn reset_peak() -> isize {
    let live = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(live));
    live
}

/// The most bytes this thread held since [`reset_peak`] returned `start`, above `start`.
pub fn peak_since(start: isize) -> u64 {
    PEAK.with(|p| p.get()).wrapping_sub(start).max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills `n` bytes at `p` with a pattern of `seed`.
    fn fill(p: *mut u8, n: usize, seed: u8) {
        for i in 0..n {
            unsafe { *p.add(i) = (i as u8).wrapping_mul(31).wrapping_add(seed) };
        }
    }

    /// Whether the first `n` bytes at `p` still hold the pattern of `seed`.
    fn holds(p: *const u8, n: usize, seed: u8) -> bool {
        (0..n).all(|i| unsafe { *p.add(i) } == (i as u8).wrapping_mul(31).wrapping_add(seed))
    }

    #[test]
    fn blocks_keep_their_bytes_across_every_size() {
        // From a small block to a mapped one, growing and shrinking among mapped sizes (on
        // and off huge-page multiples), and back down to a small one.
        let sizes = [100, 4 << 20, (5 << 20) + 1, 3 << 20, 9 << 20, (1 << 20) - 1, 200];
        let a = Counting;
        let mut layout = Layout::from_size_align(sizes[0], 8).unwrap();
        let mut p = unsafe { a.alloc(layout) };
        assert!(!p.is_null());
        fill(p, layout.size(), 7);
        for &size in &sizes[1..] {
            let kept = layout.size().min(size);
            p = unsafe { a.realloc(p, layout, size) };
            assert!(!p.is_null());
            assert!(holds(p, kept, 7), "lost bytes going from {} to {size}", layout.size());
            layout = Layout::from_size_align(size, 8).unwrap();
            fill(p, size, 7);
        }
        unsafe { a.dealloc(p, layout) };
    }

    #[test]
    fn large_blocks_come_zeroed_aligned_and_counted() {
        let a = Counting;
        let start = reset_peak();
        let layout = Layout::from_size_align(6 << 20, 4096).unwrap();
        let p = unsafe { a.alloc_zeroed(layout) };
        assert!(!p.is_null());
        assert!((p as usize).is_multiple_of(4096));
        // On Linux the block is one of this allocator's own mappings, on a huge-page boundary.
        #[cfg(target_os = "linux")]
        assert!(big::takes(layout) && (p as usize).is_multiple_of(2 << 20));
        assert!((0..layout.size()).step_by(4093).all(|i| unsafe { *p.add(i) } == 0));
        assert!(peak_since(start) >= 6 << 20);
        unsafe { a.dealloc(p, layout) };
        assert_eq!(LIVE.with(|l| l.get()), start);
    }
}
