import Foundation

#if canImport(Combine)
    import Combine
#endif

/// The board's state for its screens: where the user is, the account, the tasks, the recent
/// activity and the alerts shown. It changes on the main actor only; the client reports an ended
/// session here with `MainActor.run`.
@MainActor
public final class TaskBoardModel {
    /// The screen on show.
    public enum Screen: String, Sendable {
        case launch, signIn, board
    }

    // SwiftUI observes the model through Combine where it exists; elsewhere the same properties
    // are plain main-actor state.
    #if canImport(Combine)
        /// The screen on show.
        @Published public private(set) var screen: Screen = .launch {
            didSet { if screen != oldValue { timeline.append(screen) } }
        }
        /// The signed-in account, once known.
        @Published public private(set) var account: Account?
        /// The board's tasks, as last loaded.
        @Published public private(set) var tasks: [TaskItem] = []
        /// How many activity entries the board shows.
        @Published public private(set) var activityCount = 0
        /// Every alert shown, in order.
        @Published public private(set) var alerts: [BoardAlert] = []
    #else
        /// The screen on show.
        public private(set) var screen: Screen = .launch {
            didSet { if screen != oldValue { timeline.append(screen) } }
        }
        /// The signed-in account, once known.
        public private(set) var account: Account?
        /// The board's tasks, as last loaded.
        public private(set) var tasks: [TaskItem] = []
        /// How many activity entries the board shows.
        public private(set) var activityCount = 0
        /// Every alert shown, in order.
        public private(set) var alerts: [BoardAlert] = []
    #endif
    /// Every screen shown, in order.
    public private(set) var timeline: [Screen] = [.launch]

    /// The client every call goes through.
    public nonisolated let client: APIClient

    /// Creates a model over a client; call ``connect()`` before using it.
    public init(client: APIClient) {
        self.client = client
    }

    /// Lets the client report an ended session here.
    public func connect() async {
        await client.setSessionEnded { [weak self] in self?.sessionEnded() }
    }

    /// App start: a stored session opens the board (`GET /me`), none shows sign-in.
    public func launch() async {
        guard await client.isSignedIn else { return show(.signIn) }
        do {
            let response = try await client.send(.me)
            account = try Self.decode(Account.self, response.body)
            show(.board)
        } catch {
            show(.signIn)
        }
    }

    /// Email sign-in, then the board.
    public func signIn(email: String, password: String) async throws {
        account = try await client.signIn(email: email, password: password)
        show(.board)
    }

    /// Loads the tasks and the activity at once, as the board screen does when it appears and on
    /// pull to refresh.
    public func loadBoard() async throws {
        async let tasksAnswer = client.send(.tasks)
        async let activityAnswer = client.send(.activity)
        let (tasksBody, activityBody) = try await (tasksAnswer.body, activityAnswer.body)
        tasks = try Self.decode(TaskList.self, tasksBody).tasks
        activityCount = try Self.decode(ActivityList.self, activityBody).events.count
    }

    /// Marks a task done (`PATCH /tasks/{id}`).
    public func complete(taskID: String) async throws {
        let updated = try Self.decode(TaskItem.self, try await client.send(.complete(taskID)).body)
        tasks = tasks.map { $0.id == updated.id ? updated : $0 }
    }

    /// Adds a task (`POST /tasks`).
    public func addTask(title: String) async throws {
        tasks.append(try Self.decode(TaskItem.self, try await client.send(.create(title: title)).body))
    }

    /// Regular sign-out: no alert.
    public func signOut() async {
        await client.signOut()
        clear()
        show(.signIn)
    }

    private func sessionEnded() {
        clear()
        alerts.append(.sessionExpired)
        show(.signIn)
    }

    private func clear() {
        account = nil
        tasks = []
        activityCount = 0
    }

    private func show(_ next: Screen) { screen = next }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ body: Data) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw TaskBoardError.badBody
        }
    }
}

private struct TaskList: Decodable {
    var tasks: [TaskItem]
}

private struct ActivityList: Decodable {
    struct Event: Decodable {
        var id: String
    }
    var events: [Event]
}
