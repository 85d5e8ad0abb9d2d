/// Where the session's tokens live between launches.
///
/// Only ``APIClient`` talks to a token store; everything else asks the client.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when there are none or they cannot be read.
    func load() async -> SessionTokens?
    /// Replaces the stored tokens.
    func save(_ tokens: SessionTokens) async throws
    /// Removes the stored tokens; removing nothing is not an error.
    func clear() async throws
}
