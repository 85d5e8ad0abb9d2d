import Foundation
import HTTPCore

/// The backend of one scenario run: serves requests from the scenario's exchanges, holds and
/// delays answers on virtual time, and logs every request in order.
///
/// One instance per run; both ways in (``ScriptedTransport`` and ``ScriptedURLProtocol``)
/// hand requests to it, so scenarios never share state and can run in parallel.
public final class ScriptedBackend: @unchecked Sendable {
    /// How an answer gets back to whoever asked.
    typealias Respond = @Sendable (Result<HTTPResponse, TransportError>) -> Void

    /// One request the stack sent.
    public struct LoggedRequest: Sendable {
        /// 1-based position in the log.
        public var number: Int
        /// The request.
        public var request: HTTPRequest
        /// The exchange that served it, `nil` when none matched.
        public var exchangeID: String?
        /// When it arrived.
        public var arrivedAt: VirtualClock.Instant
    }

    private struct Held {
        var number: Int
        var reply: Reply
        var respond: Respond
    }

    private let lock = NSLock()
    private let exchanges: [Exchange]
    private let clock: VirtualClock
    private var uses: [Int]
    private var held: [[Held]]
    private var reachedSteps: Set<String> = []
    private var log: [LoggedRequest] = []
    private var transcript: [String] = []
    private var firstUnmatchedLine: Int?
    /// Called when an answer is held or released; the URLSession route counts outside work with it.
    private let onHold: @Sendable () -> Void
    private let onRelease: @Sendable () -> Void

    /// Creates a backend serving `exchanges` on `clock`.
    public convenience init(exchanges: [Exchange], clock: VirtualClock) {
        self.init(exchanges: exchanges, clock: clock, onHold: {}, onRelease: {})
    }

    init(exchanges: [Exchange], clock: VirtualClock, onHold: @escaping @Sendable () -> Void, onRelease: @escaping @Sendable () -> Void) {
        self.exchanges = exchanges
        self.clock = clock
        self.uses = Array(repeating: 0, count: exchanges.count)
        self.held = Array(repeating: [], count: exchanges.count)
        self.onHold = onHold
        self.onRelease = onRelease
    }

    /// The body unmatched requests get, so the stack can go on while the scenario fails.
    static let unmatchedBody = Data(
        #"{"success":false,"error_code":"NOT_FOUND","errors":[{"field":"scenario","message":"no scripted exchange matches this request"}]}"#
            .utf8)

    /// Takes a request and answers it through `respond`, now or later.
    func handle(_ request: HTTPRequest, respond: @escaping Respond) {
        var toSend: [(Reply, Int, Respond, Duration)] = []
        lock.withLock {
            let number = log.count + 1
            let index = exchanges.indices.first { eligible($0, for: request) }
            log.append(LoggedRequest(number: number, request: request, exchangeID: index.map { exchanges[$0].id }, arrivedAt: clock.now))
            transcript.append("[\(clock.now)] #\(number) → \(Self.describe(request))")
            guard let index else {
                transcript.append("[\(clock.now)] #\(number) ✗ no exchange matches; answered 404")
                if firstUnmatchedLine == nil { firstUnmatchedLine = transcript.count }
                let response = HTTPResponse(
                    status: .notFound, headers: [HTTPFields.Name.contentType: "application/json"], body: Self.unmatchedBody)
                toSend.append((.response(response), number, respond, .zero))
                return
            }
            uses[index] += 1
            let exchange = exchanges[index]
            switch exchange.release {
            case nil:
                toSend.append((exchange.reply, number, respond, exchange.latency))
            case .atStep(let step)? where reachedSteps.contains(step):
                toSend.append((exchange.reply, number, respond, exchange.latency))
            case .whenPending(let count)? where held[index].count + 1 >= count:
                toSend += held[index].map { ($0.reply, $0.number, $0.respond, exchange.latency) }
                toSend.append((exchange.reply, number, respond, exchange.latency))
                releaseHeld(index, count: held[index].count)
                held[index] = []
            case .some:
                held[index].append(Held(number: number, reply: exchange.reply, respond: respond))
                onHold()
            }
        }
        for (reply, number, respond, latency) in toSend {
            deliver(reply, number: number, respond: respond, after: latency)
        }
    }

    /// Releases answers held until the step named `name`.
    package func reachStep(_ name: String) {
        var toSend: [(Reply, Int, Respond, Duration)] = []
        lock.withLock {
            reachedSteps.insert(name)
            for index in exchanges.indices where exchanges[index].release == .atStep(name) {
                toSend += held[index].map { ($0.reply, $0.number, $0.respond, exchanges[index].latency) }
                releaseHeld(index, count: held[index].count)
                held[index] = []
            }
        }
        for (reply, number, respond, latency) in toSend {
            deliver(reply, number: number, respond: respond, after: latency)
        }
    }

    /// Fails every held answer with `cancelled`; used when a run ends.
    package func cancelHeld() {
        let all: [Held] = lock.withLock {
            let all = held.flatMap { $0 }
            for index in held.indices { releaseHeld(index, count: held[index].count) }
            held = held.map { _ in [] }
            return all
        }
        for item in all { item.respond(.failure(TransportError(.cancelled, detail: "scenario ended"))) }
    }

    /// Every request so far, in arrival order.
    public var requests: [LoggedRequest] { lock.withLock { log } }

    /// The exchange-by-exchange account so far, one line each (not yet masked).
    package var transcriptLines: [String] { lock.withLock { transcript } }

    /// The transcript line count up to and including the first unmatched request, if any.
    package var firstDivergence: Int? { lock.withLock { firstUnmatchedLine } }

    /// How many times each exchange served, by position.
    package var useCounts: [Int] { lock.withLock { uses } }

    /// What is held and why, for a stuck scenario's message.
    package var heldDescriptions: [String] {
        lock.withLock {
            exchanges.indices.compactMap { index in
                let count = held[index].count
                guard count > 0 else { return nil }
                let exchange = exchanges[index]
                let why: String
                switch exchange.release {
                case .whenPending(let want)?: why = "released when \(want) are pending"
                case .atStep(let step)?: why = "released at step '\(step)'"
                case nil: why = "not held"
                }
                return "\(count) request(s) held by exchange '\(exchange.id)' (\(why))"
            }
        }
    }

    // MARK: - Private (called with the lock held unless said otherwise)

    private func eligible(_ index: Int, for request: HTTPRequest) -> Bool {
        let exchange = exchanges[index]
        if let times = exchange.times, uses[index] >= times { return false }
        for id in exchange.after {
            guard let other = exchanges.firstIndex(where: { $0.id == id }), uses[other] > 0 else { return false }
        }
        return exchange.request.matches(request)
    }

    private func releaseHeld(_ index: Int, count: Int) {
        for _ in 0..<count { onRelease() }
    }

    /// Answers after `latency` of virtual time; called without the lock.
    private func deliver(_ reply: Reply, number: Int, respond: @escaping Respond, after latency: Duration) {
        let send: @Sendable () -> Void = { [weak self] in
            self?.record(reply, number: number)
            switch reply {
            case .response(let response):
                respond(.success(response))
            case .fault(let code):
                respond(.failure(TransportError(code, detail: "scripted fault")))
            }
        }
        guard latency > .zero else { return send() }
        // Latency holds the answer on virtual time; outside work must not look pending meanwhile.
        // The timer goes on the clock before the hold is announced: the runner, woken by the
        // announcement, must find the deadline there.
        let onRelease = self.onRelease
        clock.schedule(at: clock.now.advanced(by: latency), label: "answer to request #\(number) after \(latency) latency") {
            onRelease()
            send()
        }
        onHold()
    }

    private func record(_ reply: Reply, number: Int) {
        lock.withLock {
            // Unmatched requests already have their line ("no exchange matches; answered 404").
            guard let served = log.first(where: { $0.number == number })?.exchangeID else { return }
            let exchangeID = " via \(served)"
            switch reply {
            case .response(let response):
                transcript.append("[\(clock.now)] #\(number) ← \(response.status)\(exchangeID)\(Self.describeBody(response.body))")
            case .fault(let code):
                transcript.append("[\(clock.now)] #\(number) ← fault \(code.rawValue)\(exchangeID)")
            }
        }
    }

    static func describe(_ request: HTTPRequest) -> String {
        var line = "\(request.method) \(request.target)"
        for field in request.headers where field.name.caseInsensitiveCompare(ScriptedURLProtocol.routeHeader) != .orderedSame {
            line += "  \(field.name): \(field.value)"
        }
        return line + describeBody(request.body ?? Data())
    }

    /// A body on one line: compact JSON when it is JSON, else text, cut at 300 characters.
    static func describeBody(_ body: Data) -> String {
        guard !body.isEmpty else { return "" }
        let text = JSONValue.parse(body)?.compactText ?? String(decoding: body, as: UTF8.self)
        let oneLine = text.replacingOccurrences(of: "\n", with: "\\n")
        return "  " + (oneLine.count > 300 ? String(oneLine.prefix(300)) + "…" : oneLine)
    }
}
