import Foundation
import HTTPCore
import ScenarioTestSupport

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stack in the completion-handler style: its own serial queue, `dataTask` completion
/// handlers, every result and alert delivered with `DispatchQueue.main.async`, a retry on
/// `asyncAfter` that honours Retry-After, a Dispatch timer that polls, and a group that waits
/// for a fan-out. No Swift concurrency and nothing for the engine's sake.
final class CompletionClient: @unchecked Sendable {
    private let session: URLSession
    private let base: URL
    private let work = DispatchQueue(label: "client.work")
    private var poller: DispatchSourceTimer?
    private var polls = 0
    // Main queue only.
    private(set) var alerts: [String] = []
    private(set) var log: [String] = []

    init(session: URLSession, base: URL) {
        self.session = session
        self.base = base
    }

    func get(_ path: String, completion: @escaping @Sendable (Int) -> Void) {
        work.async { [self] in
            dispatchPrecondition(condition: .onQueue(work))
            session.dataTask(with: URLRequest(url: base.appendingPathComponent(path))) { [self] _, response, _ in
                let http = response as? HTTPURLResponse
                let status = http?.statusCode ?? 0
                if status == 429, let wait = http?.value(forHTTPHeaderField: "Retry-After").flatMap(Int.init) {
                    work.asyncAfter(deadline: .now() + .seconds(wait)) { [self] in get(path, completion: completion) }
                    return
                }
                DispatchQueue.main.async { [self] in
                    if status == 403, !alerts.contains("Account Blocked") { alerts.append("Account Blocked") }
                    log.append("\(path) \(status)")
                    completion(status)
                }
            }.resume()
        }
    }

    /// Polls `path` every `seconds` on a Dispatch timer until `count` answers came.
    func poll(_ path: String, every seconds: Int, count: Int, completion: @escaping @Sendable (Int) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: work)
        polls = 0
        timer.setEventHandler { [self] in
            get(path) { [self] _ in
                polls += 1
                if polls == count {
                    poller?.cancel()
                    completion(polls)
                }
            }
        }
        timer.schedule(deadline: .now() + .seconds(seconds), repeating: .seconds(seconds))
        poller = timer
        timer.resume()
    }

    /// Ticks every second on a Dispatch timer and an `asyncAfter` chain, forever, counting in `ticks`.
    func tickForever(_ ticks: TickCounter) {
        let timer = DispatchSource.makeTimerSource(queue: work)
        timer.setEventHandler { ticks.add() }
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        poller = timer
        timer.resume()
        tickAgain(ticks)
    }

    private func tickAgain(_ ticks: TickCounter) {
        work.asyncAfter(deadline: .now() + .seconds(1)) { [self] in
            ticks.add()
            tickAgain(ticks)
        }
    }

    /// Loads every path, waits for all with a group, and reports on the main queue.
    func fanOut(_ paths: [String], completion: @escaping @Sendable ([Int]) -> Void) {
        let group = DispatchGroup()
        let statuses = StatusBox()
        for path in paths {
            group.enter()
            get(path) { status in
                statuses.all.append(status)
                group.leave()
            }
        }
        group.notify(queue: .main) { completion(statuses.all.sorted()) }
    }

    /// Blocks the client's queue on a semaphore until the answer is back, as older code does.
    func getBlocking(_ path: String, completion: @escaping @Sendable (Int) -> Void) {
        work.async { [self] in
            let done = DispatchSemaphore(value: 0)
            let status = StatusBox()
            session.dataTask(with: URLRequest(url: base.appendingPathComponent(path))) { _, response, _ in
                status.value = (response as? HTTPURLResponse)?.statusCode ?? 0
                done.signal()
            }.resume()
            done.wait()
            let result = status.value
            DispatchQueue.main.async { completion(result) }
        }
    }
}

/// Counts ticks from any thread.
final class TickCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

final class StatusBox: @unchecked Sendable {
    var value = 0
    var all: [Int] = []
}

struct DispatchStyleDriver: ScenarioDriver {
    /// Where `tickForever` counts.
    var ticks = TickCounter()
    var name: String { "DispatchStyle" }
    var actions: [ActionSpec] {
        let path = [ArgumentSpec("path", .string, required: true, "path")]
        return [
            ActionSpec("get", "GET, retrying 429s after Retry-After on asyncAfter", arguments: path),
            ActionSpec("poll", "GET every 15 s on a Dispatch timer, three times", arguments: path),
            ActionSpec("fanOut", "GET /a, /b and /c, waiting with a DispatchGroup"),
            ActionSpec("getBlocking", "GET with a semaphore wait on the client's queue", arguments: path),
            ActionSpec("tickForever", "a Dispatch timer and an asyncAfter chain, each ticking every second forever"),
        ]
    }
    var givenKeys: [GivenSpec] { [] }

    func makeSession(_ context: DriverContext) async throws -> any DriverSession {
        DispatchStyleSession(
            client: CompletionClient(session: URLSession(configuration: context.urlSessionConfiguration()), base: context.baseURL),
            clock: context.clock, ticks: ticks)
    }
}

struct DispatchStyleSession: DriverSession {
    let client: CompletionClient
    let clock: VirtualClock
    let ticks: TickCounter

    func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
        let path = arguments["path"]?.stringValue ?? "/"
        let started = clock.now
        if action == "tickForever" {
            client.tickForever(ticks)
            return .value(nil)
        }
        let value: JSONValue = await withCheckedContinuation { continuation in
            switch action {
            case "get": client.get(path) { continuation.resume(returning: ["status": .number(Double($0))]) }
            case "poll": client.poll(path, every: 15, count: 3) { continuation.resume(returning: ["polls": .number(Double($0))]) }
            case "fanOut":
                client.fanOut(["/a", "/b", "/c"]) { continuation.resume(returning: .array($0.map { .number(Double($0)) })) }
            default: client.getBlocking(path) { continuation.resume(returning: ["status": .number(Double($0))]) }
            }
        }
        let seconds = started.duration(to: clock.now).components.seconds
        return .value(["result": value, "seconds": .number(Double(seconds))])
    }

    func snapshot() async -> JSONValue {
        await MainActor.run { ["log": .array(client.log.map { .string($0) })] }
    }

    func alerts() async -> [JSONValue] {
        await MainActor.run { client.alerts.map { .string($0) } }
    }

    func timeline() async -> [JSONValue] { [] }
}
