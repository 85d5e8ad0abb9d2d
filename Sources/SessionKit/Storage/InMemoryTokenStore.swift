/// A ``TokenStore`` that keeps the tokens in memory only (tests, previews, scenarios).
public actor InMemoryTokenStore: TokenStore {
    private var tokens: SessionTokens?

    /// Creates a store, optionally holding a session already.
    public init(_ tokens: SessionTokens? = nil) {
        self.tokens = tokens
    }

    /// The tokens held in memory, or `nil`.
    public func load() -> SessionTokens? { tokens }

    /// Replaces the tokens held in memory.
    public func save(_ tokens: SessionTokens) { self.tokens = tokens }

    /// Forgets the tokens.
    public func clear() { tokens = nil }
}
