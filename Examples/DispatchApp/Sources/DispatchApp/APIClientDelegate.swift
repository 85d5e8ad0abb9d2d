/// What the API client tells the app about the session. Every call comes on the main queue.
public protocol APIClientDelegate: AnyObject {
    /// A 403 that means "blocked" reached a caller; it may come many times in a burst.
    func apiClientDidDetectBlockedAccount(_ client: APIClient)
    /// The session is over (token refused, refresh failed, account unusable); tokens are gone.
    func apiClientSessionDidEnd(_ client: APIClient)
    /// A 429 or 503 the client did not wait out; the caller gets the same error.
    func apiClient(_ client: APIClient, didGiveUpOnRateLimit error: APIError)
}
