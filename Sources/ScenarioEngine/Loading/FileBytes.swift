import Foundation

/// Reads a file straight into the bytes the parser reads, so a large file is held once, not
/// also as `Data` on the way. Only a regular file of at most a bound is read: a FIFO would wait
/// for a writer for good, and a link to `/dev/zero` or a runaway file would fill the memory.
package enum FileBytes {
    /// The most any file given to the tool (a scenario, a trace, an invariant or report file, a
    /// response body) may hold.
    package static let maximumBytes = 256 * 1024 * 1024

    /// Why a file could not be read, in words that finish "cannot read FILE: ".
    package enum Failure: Error, CustomStringConvertible {
        case notAFile(String)
        case tooLarge(size: Int, limit: Int)
        case failed(String)

        package var description: String {
            switch self {
            case .notAFile(let what): "it is \(what), not a file"
            case .tooLarge(let size, let limit):
                "it has \(size) bytes, more than the \(limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes") a file may have here"
            case .failed(let reason): reason
            }
        }
    }

    /// The bytes of the file at `path` (links followed), at most `limit` of them.
    package static func read(_ path: String, limit: Int = maximumBytes) throws(Failure) -> [UInt8] {
        // Non-blocking, so that opening a FIFO does not wait for a writer before it is refused.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed(reason(errno)) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .failed(reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notAFile("a folder")
        case S_IFIFO: throw .notAFile("a FIFO")
        case S_IFCHR, S_IFBLK: throw .notAFile("a device")
        case S_IFSOCK: throw .notAFile("a socket")
        default: throw .notAFile("not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        do {
            // A file that grows while it is read stops at the bound too.
            while let chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count)), !chunk.isEmpty {
                bytes.append(contentsOf: chunk)
                guard bytes.count <= limit else { throw Failure.tooLarge(size: bytes.count, limit: limit) }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .failed("the read failed (\(error.localizedDescription))")
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case ELOOP: "a loop of symbolic links"
        default: String(cString: strerror(code))
        }
    }
}
