import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The messenger's networking, wired once at launch: sign-in and refresh, the calls, and the
/// live sync, each over a `URLSession` of its own, sharing one ``CredentialStore``.
public struct MessengerServices: Sendable {
    /// Which session a configuration is for.
    public enum Purpose: String, Sendable, CaseIterable {
        case auth, api, sync
    }

    /// Sign-in, refresh, sign-out.
    public let auth: AuthService
    /// The tokens and their refresh.
    public let credentials: CredentialStore
    /// Conversations and messages.
    public let api: ChatAPI
    /// The inbox's long poll.
    public let sync: LiveSync
    /// What sign-out does to the calls on their way.
    public let signOutPolicy: SignOutPolicy

    /// Wires the services; `configuration` is asked once per purpose (the sync's has a longer
    /// request timeout, as its server holds a poll for up to a minute).
    public init(
        baseURL: URL, tokens: ChatTokens?, signOutPolicy: SignOutPolicy = .cancelCallsInFlight,
        configuration: (Purpose) -> URLSessionConfiguration
    ) {
        let auth = AuthService(configuration: configuration(.auth), baseURL: baseURL)
        let credentials = CredentialStore(auth: auth, tokens: tokens)
        let syncConfiguration = configuration(.sync)
        syncConfiguration.timeoutIntervalForRequest = 90
        self.auth = auth
        self.credentials = credentials
        self.api = ChatAPI(configuration: configuration(.api), baseURL: baseURL, credentials: credentials)
        self.sync = LiveSync(configuration: syncConfiguration, baseURL: baseURL)
        self.signOutPolicy = signOutPolicy
    }
}
