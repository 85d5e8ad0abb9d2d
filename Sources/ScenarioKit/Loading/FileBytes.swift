import Foundation

/// Reads a file straight into the bytes the parser reads, so a large file is held once, not
/// also as `Data` on the way.
package enum FileBytes {
    /// The bytes of the file at `path`.
    package static func read(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue {
            bytes.reserveCapacity(size)
        }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}
