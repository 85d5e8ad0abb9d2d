import Foundation

/// A ``TokenStore`` backed by a JSON file, written atomically.
///
/// Meant for platforms without a keychain (Linux servers, command-line tools). The file holds
/// secrets: put it in a directory only the user can read. A corrupt file reads as empty.
public actor FileTokenStore: TokenStore {
    private let file: JSONFile<SessionTokens>

    /// Creates a store over the file at `url` (created on first save).
    public init(url: URL) {
        file = JSONFile(url: url)
    }

    /// The tokens in the file, or `nil` when it is missing or unreadable.
    public func load() -> SessionTokens? { file.read() }

    /// Writes the tokens to the file, replacing it atomically.
    public func save(_ tokens: SessionTokens) throws { try file.write(tokens) }

    /// Deletes the file; a missing file is not an error.
    public func clear() throws { try file.remove() }
}
