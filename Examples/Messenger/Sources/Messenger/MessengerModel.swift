import Foundation

#if canImport(Combine)
    import Combine
#endif

/// The messenger's state for its screens: where the user is, the inbox's conversations and
/// unread count, and the alerts shown. It changes on the main actor only.
@MainActor
public final class MessengerModel {
    /// The screen on show.
    public enum Screen: String, Sendable {
        case launch, signIn, inbox
    }

    // SwiftUI observes the model through Combine where it exists; elsewhere the same properties
    // are plain main-actor state.
    #if canImport(Combine)
        /// The screen on show.
        @Published public private(set) var screen: Screen = .launch {
            didSet { if screen != oldValue { timeline.append(screen) } }
        }
        /// How many conversations the inbox lists.
        @Published public private(set) var conversations = 0
        /// Messages the live sync brought since the inbox opened.
        @Published public private(set) var unread = 0
        /// Every alert shown, in order.
        @Published public private(set) var alerts: [String] = []
    #else
        /// The screen on show.
        public private(set) var screen: Screen = .launch {
            didSet { if screen != oldValue { timeline.append(screen) } }
        }
        /// How many conversations the inbox lists.
        public private(set) var conversations = 0
        /// Messages the live sync brought since the inbox opened.
        public private(set) var unread = 0
        /// Every alert shown, in order.
        public private(set) var alerts: [String] = []
    #endif
    /// Every screen shown, in order.
    public private(set) var timeline: [Screen] = [.launch]

    /// The services every screen goes through.
    public nonisolated let services: MessengerServices

    /// Creates the model; call ``connect()`` before using it.
    public init(services: MessengerServices) {
        self.services = services
    }

    /// Lets the calls report an ended session here.
    public func connect() async {
        await services.api.setSessionEnded { [weak self] in self?.sessionEnded() }
    }

    /// App start: the inbox with a stored session, sign-in without one.
    public func launch() async {
        screen = await services.credentials.current == nil ? .signIn : .inbox
    }

    /// Email sign-in, then the inbox.
    public func signIn(email: String, password: String) async throws {
        let signIn = try await services.auth.signIn(email: email, password: password)
        await services.credentials.store(signIn.tokens)
        screen = .inbox
    }

    /// The inbox appears: its conversations (`GET /conversations`), then its live sync.
    public func openInbox() async throws {
        let body = try await services.api.send("GET", "/conversations")
        conversations = (try? JSONDecoder().decode(ConversationList.self, from: body))?.conversations.count ?? 0
        guard let tokens = await services.credentials.current else { return }
        await services.sync.start(from: 0, accessToken: tokens.access) { [weak self] batch in self?.unread += batch.messages }
    }

    /// Sends a message (`POST /conversations/{id}/messages`).
    public func send(_ text: String, to conversation: String) async throws {
        _ = try await services.api.send("POST", "/conversations/\(conversation)/messages", json: ["text": text])
    }

    /// Regular sign-out: no alert. What happens to the calls on their way is the release's
    /// ``SignOutPolicy``.
    public func signOut() async {
        if services.signOutPolicy == .cancelCallsInFlight {
            await services.sync.stop()
            await services.api.cancelAll()
        }
        if let tokens = await services.credentials.current { await services.auth.signOut(tokens.access) }
        await services.credentials.clear()
        conversations = 0
        unread = 0
        screen = .signIn
    }

    private func sessionEnded() {
        conversations = 0
        unread = 0
        alerts.append("Your session has expired. Please sign in again.")
        screen = .signIn
    }
}

private struct ConversationList: Decodable {
    struct Conversation: Decodable {
        var id: String
    }
    var conversations: [Conversation]
}
