#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable array in memory of its own that, when large, asks the kernel for 2 MB pages.
///
/// A search reads a few records at random places in arrays of tens of megabytes; with 4 KB pages nearly every one of
/// those reads also misses the TLB, and the page walk costs another trip to memory. The buffer is aligned to 2 MB and
/// advised `MADV_HUGEPAGE` before it is first written, so that Linux backs it with huge pages where it can (with
/// transparent huge pages in `madvise` or `always` mode; elsewhere the advice is ignored and nothing changes).
final class HugePageArray<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    /// An array of `count` elements, element i being `element(i)` (`@unchecked Sendable`: written here, and by its
    /// owner while it builds, before it is shared; only read afterwards).
    init(count: Int, _ element: (Int) -> Element) {
        self.count = count
        let bytes = max(1, count * MemoryLayout<Element>.stride)
        base = Self.allocate(bytes: bytes).bindMemory(to: Element.self, capacity: max(1, count))
        for i in 0..<count { (base + i).initialize(to: element(i)) }
    }

    deinit {
        base.deinitialize(count: count)
        free(base)
    }

    var isEmpty: Bool { count == 0 }

    subscript(_ i: Int) -> Element {
        @inline(__always) get {
            assert(i >= 0 && i < count, "an element read outside the array")
            return base[i]
        }
    }

    private static func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        HugePages.allocate(bytes: bytes, alignment: max(64, MemoryLayout<Element>.alignment))
    }
}

/// Memory for the index's large arrays: 2 MB pages where the kernel grants them (see `HugePageArray`).
enum HugePages {
    static let size = 2 << 20

    /// At least `bytes` bytes aligned to `alignment`; from 1 MB up, rounded up to whole 2 MB pages and advised
    /// `MADV_HUGEPAGE` (a k-d tree's 1.9 MB of nodes would otherwise sit on 480 small pages). Free with `free`.
    static func allocate(bytes: Int, alignment: Int) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        guard bytes >= size / 2 else {
            guard posix_memalign(&memory, alignment, max(1, bytes)) == 0, let memory else { fatalError("out of memory") }
            return memory
        }
        let rounded = (bytes + size - 1) / size * size
        guard posix_memalign(&memory, size, rounded) == 0, let memory else { fatalError("out of memory") }
        #if os(Linux)
        _ = madvise(memory, rounded, MADV_HUGEPAGE)
        #endif
        return memory
    }
}
