/// A ``TokenStore`` that keeps the tokens in memory only (tests, previews, scenarios).
public actor InMemoryTokenStore: TokenStore {
    private var tokens: SessionTokens?

    /// Creates a store, optionally holding a session already.
    public init(_ tokens: SessionTokens? = nil) {
        self.tokens = tokens
    }

    public func load() -> SessionTokens? { tokens }

    public func save(_ tokens: SessionTokens) { self.tokens = tokens }

    public func clear() { tokens = nil }
}
