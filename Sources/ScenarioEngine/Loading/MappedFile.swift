import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A file's bytes mapped into memory read-only, for the parser to read in place: a large file
/// is then not copied into memory first, and the pages already parsed can be let go of.
package final class MappedFile {
    /// The bytes, valid while the file is mapped.
    package let bytes: UnsafeBufferPointer<UInt8>
    private let start: UnsafeMutableRawPointer?
    /// Up to where the pages were let go of.
    private var released = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the file at `path`.
    package init(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.error(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(path) }
        let size = Int(status.st_size)
        guard size > 0 else {
            start = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw Self.error(path)
        }
        start = mapped
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        if let start { munmap(start, bytes.count) }
    }

    /// Lets the system drop the pages wholly before `offset`: they stop counting against the
    /// process, and are read from the file again if touched.
    package func release(before offset: Int) {
        guard let start else { return }
        let end = offset / Self.pageSize * Self.pageSize
        // Every few megabytes: each call is a system call.
        guard end - released >= 4 << 20 else { return }
        _ = madvise(start + released, end - released, MADV_DONTNEED)
        released = end
    }

    private static func error(_ path: String) -> CocoaError {
        CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
    }
}
