import Foundation
import HTTPCore

/// The backend of one scenario run: serves requests from the scenario's exchanges, holds and
/// delays answers on virtual time, and logs every request in order.
///
/// One instance per run; both ways in (``ScriptedTransport`` and ``ScriptedURLProtocol``)
/// hand requests to it, so scenarios never share state and can run in parallel.
package final class ScriptedBackend: @unchecked Sendable {
    /// How an answer gets back to whoever asked.
    typealias Respond = @Sendable (Result<HTTPResponse, TransportError>) -> Void

    /// An answer the backend keeps back: held by a release condition, or waiting on latency.
    private struct Held {
        var number: Int
        var reply: Reply
        var respond: Respond
        /// The URLSession route's name for the request (see ``OutsideWork``); `nil` on the direct route.
        var tag: Int?
        /// Whether the client still wants the answer when it is due (`nil`: always).
        var isWanted: (@Sendable () -> Bool)?
        /// When the client stops waiting and fails the request with `timedOut` (a URLSession's
        /// request timeout), asked only of an answer that does not go at once; `nil`: it waits.
        var clientDeadline: @Sendable () -> VirtualClock.Instant? = { nil }
    }

    private let lock = NSLock()
    // The state below is the lock's (or the runner thread's alone): `@exclusivity(unchecked)`
    // spares the dynamic check of every access, a tenth of the engine's time per exchange; the
    // thread sanitizer's pass in CI still watches it.
    private var endings: [@Sendable () -> Void] = []
    private let exchanges: [Exchange]
    private let clock: VirtualClock
    @exclusivity(unchecked) private var uses: [Int]
    @exclusivity(unchecked) private var held: [[Held]]
    /// Requests their clients gave up on (see ``cancelledByClient(_:)``).
    @exclusivity(unchecked) private var givenUp: Set<Int> = []
    /// Answers waiting on virtual latency, or on their client's deadline when it comes first, by request number.
    @exclusivity(unchecked) private var delayed: [Int: Held] = [:]
    /// The clock's timers that will answer a request or time it out (a latency, a held answer's
    /// client deadline), by request number: dropped when the client gives the request up, so time
    /// never moves to them for nothing.
    @exclusivity(unchecked) private var timers: [Int: UInt64] = [:]
    private var reachedSteps: Set<String> = []
    /// Requests not answered yet (held, delayed or being handled).
    @exclusivity(unchecked) private var unanswered = 0
    /// The run is being taken down (``cancelHeld()``): what the app sends now comes after its checks.
    @exclusivity(unchecked) private var runEnding = false
    /// Under an explored schedule: how late an answer may come, and the draws that say how late.
    @exclusivity(unchecked) private var lateness: LateAnswers?
    /// Whether any answer may come late: known when the backend is made, so that a run that
    /// draws none takes no lock for it.
    private let answersMayBeLate: Bool
    /// Everything served so far, as events.
    @exclusivity(unchecked) private var record: RunRecord
    /// The run is over: said once in the record, before what the app sends while it ends.
    private var saidRunOver = false
    /// On the URLSession route: which requests are away, so that idleness stays exact.
    private let outsideWork: OutsideWork?
    /// What the run tracks as away on other threads; `nil` for a backend made outside a run.
    var outside: OutsideWork? { outsideWork }

    /// Creates a backend serving `exchanges` on `clock`.
    package convenience init(exchanges: [Exchange], clock: VirtualClock) {
        self.init(exchanges: exchanges, clock: clock, outsideWork: nil)
    }

    /// A run's backend: its answers go to the stack through `handOn` (a run hands them on one at
    /// a time; `nil`: at once), and under an explored schedule up to the bound later than
    /// scripted while other requests are in flight, as `lateAnswers` draws it, so that answers in
    /// flight together arrive in another order.
    init(
        exchanges: [Exchange], clock: VirtualClock, outsideWork: OutsideWork?, handOn: (@Sendable (AnswerDelivery) -> Void)? = nil,
        lateAnswers: LateAnswers? = nil
    ) {
        self.exchanges = exchanges
        self.clock = clock
        self.record = RunRecord(clockStart: clock.start)
        self.uses = Array(repeating: 0, count: exchanges.count)
        self.held = Array(repeating: [], count: exchanges.count)
        self.outsideWork = outsideWork
        self.handOn = handOn
        let lateness = lateAnswers.flatMap { $0.bound > .zero ? $0 : nil }
        self.lateness = lateness
        answersMayBeLate = lateness != nil
    }

    /// The answers that came late so far, by draw, and how late.
    var lateAnswersTaken: [ExplicitSchedule.Place: Duration] { lock.withLock { lateness?.taken ?? [:] } }

    /// The run begins step `step`: late answers are counted within it.
    func enterStep(_ step: Int) { lock.withLock { lateness?.enterStep(step) } }

    /// Takes a request and answers it through `respond`, now or later. `tag` names the request
    /// on the URLSession route; `isWanted`, asked when the answer is due, says whether the client
    /// is giving the request up (then it is logged as cancelled); `timeout`, asked only when the
    /// answer does not go at once, is how long the client waits for it before it fails the
    /// request with `timedOut` (the exchange still served it). Returns the request's number.
    @discardableResult
    func handle(
        _ request: HTTPRequest, tag: Int? = nil, isWanted: (@Sendable () -> Bool)? = nil,
        timeout: (@Sendable () -> Duration?)? = nil, respond: @escaping Respond
    ) -> Int {
        var toSend: [(Held, Duration)] = []
        var heldNow: Held?
        var afterTheEnd = false
        var clientDeadline: @Sendable () -> VirtualClock.Instant? = { nil }
        if let timeout {
            let arrived = clock.now
            clientDeadline = { timeout().map { arrived.advanced(by: $0) } }
        }
        let number = lock.withLock { () -> Int in
            let now = clock.now.offset
            if runEnding {
                // Taken down: nothing is served any more, and the request fails at once, as every
                // answer still kept back did (``cancelHeld()``).
                if !saidRunOver {
                    saidRunOver = true
                    record.note(.runOver, number: 0, at: now)
                }
                let number = record.sent(request, exchange: nil, at: now)
                record.gaveUp(number, .refusedAfterEnd, at: now)
                afterTheEnd = true
                return number
            }
            unanswered += 1
            let candidate = MatchCandidate(request)
            let index = exchanges.indices.first { eligible($0, for: candidate) }
            let number = record.sent(request, exchange: index.map { exchanges[$0].id }, at: now)
            guard let index else {
                record.note(.unmatched(nearMiss: Self.nearMisses(candidate, exchanges: exchanges, uses: uses)), number: number, at: now)
                let response = HTTPResponse(
                    status: .notFound, headers: [HTTPFields.Name.contentType: "application/json"], body: Self.unmatchedBody)
                toSend.append((Held(number: number, reply: .response(response), respond: respond, tag: tag, isWanted: isWanted), .zero))
                return number
            }
            uses[index] += 1
            let exchange = exchanges[index]
            let answer = Held(
                number: number, reply: exchange.reply, respond: respond, tag: tag, isWanted: isWanted, clientDeadline: clientDeadline)
            switch exchange.release {
            case nil:
                toSend.append((answer, exchange.latency))
            case .atStep(let step)? where reachedSteps.contains(step):
                toSend.append((answer, exchange.latency))
            case .whenPending(let count)? where held[index].count + 1 >= count:
                toSend += drainHeld(index).map { ($0, exchange.latency) }
                toSend.append((answer, exchange.latency))
            case .some(let release):
                held[index].append(answer)
                heldNow = answer
                tag.map { outsideWork?.park($0) }
                record.note(.held(release), number: number, at: now)
            }
            return number
        }
        // Once it is in the record: the runner may hand the next answer on from here.
        tag.map { outsideWork?.arrived($0) }
        if afterTheEnd {
            respond(.failure(TransportError(.cancelled, detail: "the scenario is over")))
            return number
        }
        if let heldNow { timeOutWhileHeld(heldNow) }
        for (answer, latency) in toSend { deliver(answer, after: latency) }
        return number
    }

    /// A held answer's client gives up at its deadline if the answer is still held then.
    private func timeOutWhileHeld(_ answer: Held) {
        guard let deadline = answer.clientDeadline() else { return }
        let number = answer.number
        let timer = clock.schedule(at: deadline, label: "request #\(number) times out (its client's request timeout)") { [weak self] in
            guard let self else { return }
            let timedOut: Held? = lock.withLock {
                timers.removeValue(forKey: number)
                for index in held.indices {
                    if let position = held[index].firstIndex(where: { $0.number == number }) { return held[index].remove(at: position) }
                }
                return nil
            }
            guard let timedOut else { return }
            timedOut.tag.map { outsideWork?.unpark($0) }
            send(timedOut, timingOut: true)
        }
        if let timer { lock.withLock { timers[number] = timer } }
    }

    /// The client gave request `number` up before its answer reached it (the app cancelled its
    /// URLSession task, or the task awaiting the direct transport): the transcript says so now, the invariants see the request as no longer
    /// away, and the answer it would have got, held or on its way, is dropped.
    package func cancelledByClient(_ number: Int) {
        lock.withLock {
            guard number >= 1, number <= record.requests.count, record.answer(to: number) == nil, givenUp.insert(number).inserted
            else { return }
            unanswered -= 1
            record.gaveUp(number, .cancelledByApp, at: clock.now.offset)
            // The answer it would have got is dropped; the request is away again until URLSession
            // hands the cancel back to its caller (from its own threads, where they are not the
            // scenario's).
            var dropped = delayed.removeValue(forKey: number).map { [$0] } ?? []
            for index in held.indices {
                dropped += held[index].filter { $0.number == number }
                held[index].removeAll { $0.number == number }
            }
            for answer in dropped { answer.tag.map { outsideWork?.unpark($0) } }
            timers.removeValue(forKey: number).map(clock.cancelTimer)
        }
    }

    /// Logs as given up every answer kept back (held, or on its way) whose client no longer wants
    /// it, now: called whenever the app is idle, before time moves, so a URLSession task the app
    /// cancelled counts as cancelled when it was, even where URLSession tells the protocol later
    /// from a thread of its own (Apple platforms, capture of Swift concurrency only).
    package func sweepGivenUp() {
        let waiting: [(number: Int, isWanted: @Sendable () -> Bool)] = lock.withLock {
            let kept = delayed.values.map { $0 } + held.joined()
            return kept.compactMap { answer in answer.isWanted.map { (answer.number, $0) } }
        }
        // Probes run outside the lock: they ask URLSession.
        for (number, isWanted) in waiting.sorted(by: { $0.number < $1.number }) where !isWanted() { cancelledByClient(number) }
    }

    /// Releases answers held until the step named `name`.
    package func reachStep(_ name: String) {
        var toSend: [(Held, Duration)] = []
        lock.withLock {
            reachedSteps.insert(name)
            for index in exchanges.indices where exchanges[index].release == .atStep(name) {
                toSend += drainHeld(index).map { ($0, exchanges[index].latency) }
            }
        }
        for (answer, latency) in toSend { deliver(answer, after: latency) }
    }

    /// Fails every answer still kept back (held or waiting on latency) with `cancelled`, so no
    /// caller waits forever, and says so in the transcript; used when a run ends.
    package func cancelHeld() {
        let all: [Held] = lock.withLock {
            runEnding = true
            var all = exchanges.indices.flatMap { drainHeld($0, logging: false) }
            all += delayed.keys.sorted().compactMap { delayed.removeValue(forKey: $0) }
            for answer in all.sorted(by: { $0.number < $1.number }) {
                answer.tag.map { outsideWork?.unpark($0) }
                if !givenUp.contains(answer.number) { record.note(.unansweredAtEnd, number: answer.number, at: clock.now.offset) }
            }
            return all
        }
        for answer in all { answer.respond(.failure(TransportError(.cancelled, detail: "scenario ended"))) }
    }

    /// Keeps `work` for the end of the run (after ``cancelHeld()``): undoing what serving a
    /// request left in the process, such as cookies in the shared storage.
    package func whenRunEnds(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { endings.append(work) }
    }

    /// Runs what ``whenRunEnds(_:)`` kept.
    package func runEnded() {
        for work in lock.withLock({ endings }) { work() }
    }

    /// The body unmatched requests get, so the stack can go on while the scenario fails.
    static let unmatchedBody = Data(
        #"{"success":false,"error_code":"NOT_FOUND","errors":[{"field":"scenario","message":"no scripted exchange matches this request"}]}"#
            .utf8)

    /// What the run did so far, as events and requests with their answers.
    package var runRecord: RunRecord { lock.withLock { record } }

    /// How many events so far (where an action or a step begins, see ``RunRecord``).
    package var eventCount: Int { lock.withLock { record.count } }

    /// Notes an escape in the record, where it happened among the requests.
    package func noteEscape(_ message: String) {
        lock.withLock { record.note(.escaped(message), number: 0, at: clock.now.offset) }
    }

    /// How many times each exchange served, by position.
    package var useCounts: [Int] { lock.withLock { uses } }

    /// What is held and why, for a stuck scenario's message.
    package var heldDescriptions: [String] {
        lock.withLock {
            exchanges.indices.compactMap { index in
                let count = held[index].count
                guard count > 0 else { return nil }
                let exchange = exchanges[index]
                let why = exchange.release.map(Transcript.describe) ?? "not held"
                return "\(count) request(s) held by exchange '\(exchange.id)' (\(why))"
            }
        }
    }

    // MARK: - Private (called with the lock held unless said otherwise)

    private func eligible(_ index: Int, for candidate: MatchCandidate) -> Bool {
        let exchange = exchanges[index]
        if let times = exchange.times, uses[index] >= times { return false }
        for id in exchange.after {
            guard let other = exchanges.firstIndex(where: { $0.id == id }), uses[other] > 0 else { return false }
        }
        return exchange.request.matches(candidate)
    }

    /// Takes every answer held for exchange `index`, letting them go (lock held); a release is
    /// logged, the cancelling at the end of a run is not.
    private func drainHeld(_ index: Int, logging: Bool = true) -> [Held] {
        let drained = held[index]
        held[index] = []
        for answer in drained {
            answer.tag.map { outsideWork?.unpark($0) }
            timers.removeValue(forKey: answer.number).map(clock.cancelTimer)
            if logging { record.note(.released, number: answer.number, at: clock.now.offset) }
        }
        return drained
    }

    /// Answers after `latency` of virtual time, or times the request out at its client's
    /// deadline when that comes first; called without the lock.
    private func deliver(_ answer: Held, after scripted: Duration) {
        // Only while another request is in flight too: then answers may cross.
        let late =
            !answersMayBeLate
            ? .zero
            : lock.withLock { () -> Duration in
                let late = unanswered > 1 ? lateness?.draw() ?? .zero : .zero
                if late > .zero { record.note(.late(by: late), number: answer.number, at: clock.now.offset) }
                return late
            }
        let latency = scripted + late
        guard latency > .zero else { return send(answer) }
        let due = clock.now.advanced(by: latency)
        let deadline = answer.clientDeadline().flatMap { $0 < due ? $0 : nil }
        lock.withLock { delayed[answer.number] = answer }
        let label =
            deadline == nil
            ? "answer to request #\(answer.number) after \(latency) latency"
            : "request #\(answer.number) times out (its client's request timeout) before its answer after \(latency)"
        // The timer goes on the clock before the request is parked: a runner woken by the
        // parking must find the deadline there.
        let timer = clock.schedule(at: deadline ?? due, label: label) { [weak self] in
            guard let self,
                let answer = self.lock.withLock({ () -> Held? in
                    self.timers.removeValue(forKey: answer.number)
                    return self.delayed.removeValue(forKey: answer.number)
                })
            else { return }
            answer.tag.map { self.outsideWork?.unpark($0) }
            self.send(answer, timingOut: deadline != nil)
        }
        if let timer { lock.withLock { timers[answer.number] = timer } }
        answer.tag.map { outsideWork?.park($0) }
    }

    /// Where answers go on their way to the stack: a run hands them on one at a time.
    private let handOn: (@Sendable (AnswerDelivery) -> Void)?

    /// Hands the answer on, or, `timingOut`, its client's `timedOut` instead.
    private func send(_ answer: Held, timingOut: Bool = false) {
        let now: @Sendable () -> Void = { [self] in timingOut ? timeOutNow(answer) : answerNow(answer) }
        guard let handOn else { return now() }
        handOn(AnswerDelivery(now))
    }

    /// The client gives the request up with `timedOut`: no answer came within its request timeout.
    private func timeOutNow(_ answer: Held) {
        if let isWanted = answer.isWanted, !isWanted() { return cancelledByClient(answer.number) }
        let waited: Duration? = lock.withLock {
            let number = answer.number
            guard !givenUp.contains(number) else { return nil }
            unanswered -= 1
            let waited = clock.now.offset - record.requests[number - 1].at
            record.gaveUp(number, .timedOut(waited: waited), at: clock.now.offset)
            return waited
        }
        guard let waited else { return }
        answer.respond(.failure(TransportError(.timedOut, detail: "no answer within the request timeout (\(waited))")))
    }

    private func answerNow(_ answer: Held) {
        if let isWanted = answer.isWanted, !isWanted() { return cancelledByClient(answer.number) }
        guard record(answer.reply, number: answer.number) else { return }
        switch answer.reply {
        case .response(let response):
            answer.respond(.success(response))
        case .fault(let code):
            answer.respond(.failure(TransportError(code, detail: "scripted fault")))
        }
    }

    /// Records the answer to request `number`; `false` when its client gave it up first.
    private func record(_ reply: Reply, number: Int) -> Bool {
        lock.withLock {
            guard !givenUp.contains(number) else { return false }
            unanswered -= 1
            record.answered(number, reply, at: clock.now.offset)
            return true
        }
    }
}
