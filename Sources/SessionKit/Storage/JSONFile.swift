import Foundation

/// A `Codable` value kept in one JSON file, replaced atomically on every write.
///
/// A missing, unreadable or corrupt file reads as `nil`: a damaged cache must cost the user a
/// sign-in, never a crash at launch.
struct JSONFile<Value: Codable & Sendable>: Sendable {
    /// The file's location.
    let url: URL

    /// The stored value, or `nil`.
    func read() -> Value? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard !JSONNesting.isTooDeep(data) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }

    /// Writes the value through a temporary file, so a crash never leaves half a file.
    func write(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: [.atomic])
    }

    /// Deletes the file; a file that is already gone is fine.
    func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
