import Foundation
import HTTPCore
import ScenarioTestSupport

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stack written the way app teams write it, with nothing for the engine's sake: state on the
/// main actor, its own URLSession, unstructured tasks, `Task.sleep` on the real clock API, a
/// completion-handler call and `URLSession.shared`. No executor is named anywhere.
struct AppStyleDriver: ScenarioDriver {
    var name: String { "AppStyle" }
    var actions: [ActionSpec] {
        [
            ActionSpec("get", "GET a path with the app's own session", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec(
                "getWithHandler", "GET with a completion handler", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec("getShared", "GET through URLSession.shared", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec(
                "getWithDelegate", "GET on a session with a data delegate",
                arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec("napThenGet", "Task.sleep an hour, then GET", arguments: [ArgumentSpec("path", .string, required: true, "path")]),
            ActionSpec("fanOut", "three detached tasks and a task group hop through an actor"),
            ActionSpec(
                "getThenCancel", "GET with a completion handler, cancelled after a second",
                arguments: [ArgumentSpec("path", .string, required: true, "path")]
            ),
            ActionSpec("napInActor", "sleep 30 s three times inside an actor: called directly, from Task {}, from Task.detached"),
            ActionSpec("escapeViaDispatch", "resume from DispatchQueue.global after 20 ms"),
            ActionSpec("escapeViaThread", "resume from a Thread of the app's own"),
            ActionSpec("declaredDispatch", "resume from DispatchQueue.global, declared as outside work"),
        ]
    }
    var givenKeys: [GivenSpec] { [GivenSpec("hangOnStart", .boolean, "never finish makeSession")] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        if context.given["hangOnStart"]?.boolValue == true {
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        let store = AppStore()
        return AppStyleSession(
            context: context, store: store, session: URLSession(configuration: context.urlSessionConfiguration()))
    }
}

/// The app's observable state; every change happens on the main actor.
@MainActor final class AppStore {
    var screen = "home"
    var alerts: [String] = []
    var timeline: [String] = []
    private var blockHandled = false

    /// The blocked-user guard: once per session, on the main actor.
    func accountBlocked() {
        MainActor.assertIsolated()
        guard !blockHandled else { return }
        blockHandled = true
        screen = "login"
        alerts.append("Account Blocked")
        timeline.append("unauthenticated")
    }
}

actor Tally {
    var count = 0

    /// A backoff as an actor would write it, on whichever clock.
    func napThenCount(seconds: Int, clock: String = "task") async -> Int {
        switch clock {
        case "continuous": try? await ContinuousClock().sleep(for: .seconds(seconds))
        case "suspending": try? await SuspendingClock().sleep(for: .seconds(seconds))
        default: try? await Task.sleep(for: .seconds(seconds))
        }
        count += 1
        return count
    }
    func add() -> Int {
        count += 1
        return count
    }
}

final class AppStyleSession: DriverSession, @unchecked Sendable {
    let context: DriverContext
    let store: AppStore
    let session: URLSession
    let tally = Tally()

    init(context: DriverContext, store: AppStore, session: URLSession) {
        self.context = context
        self.store = store
        self.session = session
    }

    private func url(_ arguments: JSONValue) -> URL {
        context.baseURL.appendingPathComponent(arguments["path"]?.stringValue ?? "/")
    }

    private func handle(status: Int) -> ActionResult {
        if status == 403 {
            // Fire and forget onto the main actor, as app code does.
            Task { @MainActor [store] in store.accountBlocked() }
        }
        return .value(["status": .number(Double(status))])
    }

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        do {
            switch action {
            case "get":
                let (_, response) = try await session.data(for: URLRequest(url: url(arguments)))
                return handle(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
            case "getWithHandler":
                let session = self.session
                let request = URLRequest(url: url(arguments))
                let status: Int = try await withCheckedThrowingContinuation { continuation in
                    session.dataTask(with: request) { _, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else {
                            continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                        }
                    }.resume()
                }
                return handle(status: status)
            case "getWithDelegate":
                let status = try await DelegateLoader.load(
                    URLRequest(url: url(arguments)), configuration: context.urlSessionConfiguration())
                return handle(status: status)
            case "getThenCancel":
                let request = URLRequest(url: url(arguments))
                let session = self.session
                let outcome = Box()
                let task = session.dataTask(with: request) { _, _, error in outcome.finish(error) }
                task.resume()
                try await Task.sleep(for: .seconds(1))
                task.cancel()
                let error = await outcome.value
                return .error(["code": .string((error as? URLError)?.code == .cancelled ? "cancelled" : "\(String(describing: error))")])
            case "getShared":
                let (_, response) = try await URLSession.shared.data(for: URLRequest(url: url(arguments)))
                return handle(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
            case "napThenGet":
                try await Task.sleep(for: .seconds(3600))
                let (_, response) = try await session.data(for: URLRequest(url: url(arguments)))
                return handle(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
            case "napInActor":
                let tally = self.tally
                _ = await tally.napThenCount(seconds: 30)
                _ = await Task { await tally.napThenCount(seconds: 30, clock: "continuous") }.value
                let count = await Task.detached { await tally.napThenCount(seconds: 30, clock: "suspending") }.value
                return .value(["count": .number(Double(count))])
            case "fanOut":
                let tally = self.tally
                for _ in 0..<3 { _ = await Task.detached { await tally.add() }.value }
                await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<3 { group.addTask { await tally.add() } }
                }
                let total = await MainActor.run { [store] in
                    MainActor.assertIsolated()
                    store.timeline.append("fanned out")
                    return store.timeline.count
                }
                return .value(["count": .number(Double(await tally.count)), "timeline": .number(Double(total))])
            case "escapeViaDispatch":
                // Dispatch is the scenario's: the 20 ms are virtual.
                let started = context.clock.now
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { continuation.resume() }
                }
                let elapsed = started.duration(to: context.clock.now)
                return .value(["seconds": .number(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))])
            case "escapeViaThread":
                // A thread of the app's own resumes after the task has suspended. (A resume that
                // wins the race with the suspension looks like a plain call and is not an escape.)
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let thread = Thread {
                        Thread.sleep(forTimeInterval: 0.02)
                        continuation.resume()
                    }
                    thread.name = "app.worker"
                    thread.start()
                }
                return .value(.null)
            case "declaredDispatch":
                let ticket = context.outsideWork("a global dispatch queue")
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        continuation.resume()
                        ticket.finish()
                    }
                }
                return .value(.null)
            default:
                return .error(["code": "unknownAction"])
            }
        } catch {
            return .error(["code": .string("\(type(of: error))")])
        }
    }

    func snapshot() async -> JSONValue {
        await MainActor.run { [store] in ["screen": .string(store.screen)] }
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run { [store] in store.alerts.map { .string($0) } }
    }

    func timeline() async -> [JSONValue] {
        await MainActor.run { [store] in store.timeline.map { .string($0) } }
    }
}

/// A request as delegate-based networking code makes it: the answer arrives in pieces through
/// `URLSessionDataDelegate` callbacks on the session's queue.
final class DelegateLoader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private var status = 0
    private var received = Data()
    private var continuation: CheckedContinuation<Int, any Error>?

    static func load(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> Int {
        let loader = DelegateLoader()
        let session = URLSession(configuration: configuration, delegate: loader, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            loader.continuation = continuation
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(returning: status)
        }
        continuation = nil
    }
}

/// A completion handler's error, awaited once it has arrived.
final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)??
    private var waiter: CheckedContinuation<(any Error)?, Never>?

    func finish(_ error: (any Error)?) {
        let waiter = lock.withLock { () -> CheckedContinuation<(any Error)?, Never>? in
            self.error = .some(error)
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: error)
    }

    var value: (any Error)? {
        get async {
            await withCheckedContinuation { continuation in
                let done: (any Error)?? = lock.withLock {
                    if error == nil { waiter = continuation }
                    return error
                }
                if let done { continuation.resume(returning: done) }
            }
        }
    }
}
