#if canImport(Glibc)
    import Glibc
#endif

/// Hands memory the process has freed back to the system.
package enum FreedMemory {
    /// glibc keeps the pages of freed small blocks inside its heap for reuse, and a large buffer
    /// asked for next gets pages of its own: after a large capture is let go and before its
    /// draft is read back, its pages are returned so the two do not add up. Other allocators
    /// return them by themselves.
    package static func release() {
        #if canImport(Glibc)
            // `malloc_trim` is glibc's own (malloc.h is not in the Glibc module): looked up, not linked.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
