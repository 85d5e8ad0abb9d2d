import Foundation

/// The app's networking, wired once at launch: an `auth` client for sign-in, refresh and
/// sign-out, an `api` client for everything else (each over its own `URLSession`), and the
/// tokens both depend on.
public struct AppServices: Sendable {
    /// The client of the app's calls; its delegate is an ``AppClientPolicy``.
    public let api: APIClient
    /// The auth endpoints, on a client of their own.
    public let auth: AuthAPI
    /// The session's tokens and the refresh they share.
    public let credentials: RefreshCoalescer
    /// The wall clock (for `Retry-After` dates and the user's sync marker).
    public let now: @Sendable () -> Date
    let events: SessionEvents

    /// Wires the stack. `makeClient` builds each client with the delegate it must have, over
    /// a `URLSession` of its own, such as
    /// `APIClient(baseURL: url, sessionConfiguration: .default, delegate: $0)`; it is called twice.
    public init(
        tokens: SessionTokens?, now: @escaping @Sendable () -> Date = { Date() },
        makeClient: (any APIClientDelegate) -> APIClient
    ) {
        let auth = AuthAPI(client: makeClient(AuthClientPolicy(now: now)))
        let credentials = RefreshCoalescer(tokens: tokens, auth: auth)
        let events = SessionEvents()
        self.auth = auth
        self.credentials = credentials
        self.events = events
        self.now = now
        self.api = makeClient(AppClientPolicy(credentials: credentials, events: events, now: now))
    }
}
