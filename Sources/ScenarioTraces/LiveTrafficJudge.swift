import Foundation
import ScenarioEngine

/// Judges a recorder's live traffic against invariants, off the request path: the recorder hands
/// each event over (a few instructions under a lock of the judge's own), and a serial queue of
/// the judge's applies them to a bounded ``LiveTrafficWindow``, checks the rules with the
/// engine's ``InvariantChecker`` whenever a request was sent, and saves a trace per broken rule
/// once the requests involved have finished and the traffic has gone quiet
/// (``LiveTrafficJudge/save(_:)``): what the app does next (a retry after the refresh it fought
/// over) belongs to the trace that reproduces it.
final class LiveTrafficJudge: @unchecked Sendable {
    /// What the recorder hands over, in the order it recorded it.
    private enum Event {
        case sent(Int, HARLog.Entry)
        case finished(Int, HARLog.Response?, Date)
    }

    /// A rule seen to break whose trace waits for the requests involved to finish.
    struct Pending {
        let invariant: Invariant
        /// The violation as first seen (numbers are those of the window's record then).
        let violation: InvariantViolation
        /// The recorder ids of the requests involved.
        let ids: [Int]
        let date: Date
        /// Events handled since: past ``LiveTrafficJudge/patience`` the trace is saved anyway.
        var waited = 0
    }

    /// Events after which a trace is saved even if a request involved is still in flight.
    static let patience = 64
    /// How long no request may be on its way, after the ones involved finished, before a trace
    /// is saved: the app's follow-ups of what broke are in it.
    static let quietTime: DispatchTimeInterval = .seconds(1)
    /// Events waiting for the queue beyond which the judge gives up on them (and on the window
    /// they would have completed) rather than hold more: judging starts again from the next one.
    static let inboxLimit = 10_000

    let notJudged: [URLSessionRecorder.Watch.NotJudged]
    let rulesFile: String
    let folder: URL
    let settings: URLSessionRecorder.WatchSettings
    let onBreak: @MainActor @Sendable (BrokenInvariant) -> Void
    private let queue = DispatchQueue(label: "SessionScenarios.URLSessionRecorder.judge", qos: .utility)

    // Guards the inbox; held only to add or take events, never while judging.
    private let lock = NSLock()
    private var inbox: [Event] = []
    private var scheduled = false
    private var overflowed = false

    /// The rules judged, in file order.
    let invariants: [Invariant]

    // Touched only on `queue`.
    private(set) var window: LiveTrafficWindow
    /// The places in ``invariants`` of the rules still judged: a rule leaves once it has saved
    /// ``WatchSettings/tracesPerRule`` traces.
    private var active: [Int]
    private var traces: [String: Int] = [:]
    private var pending: [Pending] = []
    /// When the judge last handled an event; a quiet check scheduled for an earlier one is stale.
    private var lastEvent = DispatchTime.now()
    /// Set while ``settle()`` runs: a trace whose requests finished is saved without waiting.
    private var forcing = false

    init(
        invariants: [Invariant], notJudged: [URLSessionRecorder.Watch.NotJudged], rulesFile: String, folder: URL,
        settings: URLSessionRecorder.WatchSettings, onBreak: @escaping @MainActor @Sendable (BrokenInvariant) -> Void,
        epoch: Date = Date()
    ) {
        self.invariants = invariants
        active = Array(invariants.indices)
        self.notJudged = notJudged
        self.rulesFile = rulesFile
        self.folder = folder
        self.settings = settings
        self.onBreak = onBreak
        window = LiveTrafficWindow(capacity: settings.judgedExchanges, maximumBytes: settings.judgedBytes, epoch: epoch)
    }

    // MARK: From the request path

    /// Request `id` was sent (the recorder's entry, not yet answered).
    func sent(_ id: Int, _ entry: HARLog.Entry) { enqueue(.sent(id, entry)) }

    /// Request `id` ended: its response, or `nil` when it failed.
    func finished(_ id: Int, _ response: HARLog.Response?, at ended: Date) { enqueue(.finished(id, response, ended)) }

    private func enqueue(_ event: Event) {
        let schedule = lock.withLock { () -> Bool in
            guard inbox.count < Self.inboxLimit else {
                overflowed = true
                return false
            }
            inbox.append(event)
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { queue.async { self.drain() } }
    }

    /// Waits until every event handed over so far is judged and every trace due is written (for
    /// tests and the benchmark; an app never waits for the judge).
    func settle() {
        queue.sync {}
        // A drain may have been scheduled by the last events while the one above ran.
        queue.sync {
            forcing = true
            saveWhatIsDue(after: 0)
            forcing = false
        }
    }

    // MARK: On the judge's queue

    private func drain() {
        let (events, overflowed) = lock.withLock { () -> ([Event], Bool) in
            defer {
                inbox.removeAll(keepingCapacity: true)
                scheduled = false
                self.overflowed = false
            }
            return (inbox, self.overflowed)
        }
        if overflowed {
            // Events were lost: what is kept could read as a broken rule that is not one.
            window = LiveTrafficWindow(capacity: window.capacity, maximumBytes: window.maximumBytes, epoch: window.epoch)
        }
        var firstSent: Int?
        for event in events {
            switch event {
            case .sent(let id, let entry):
                window.sent(id, entry)
                if firstSent == nil { firstSent = id }
            case .finished(let id, let response, let ended):
                window.finished(id, response, at: ended, invariants: invariants)
            }
        }
        // Every traffic rule breaks at a request being sent: only then is there anything to judge.
        if let firstSent, !active.isEmpty { judge(sentFrom: firstSent) }
        lastEvent = .now()
        if !pending.isEmpty { saveWhatIsDue(after: events.count) }
    }

    /// Checks each rule still judged over the kept exchanges it concerns, and keeps a trace due
    /// for each broken by a request recorder id `id` or later.
    private func judge(sentFrom id: Int) {
        var done: [Int] = []
        for index in active {
            let invariant = invariants[index]
            // Nothing it concerns is new, or nothing kept arms it: it broke nothing new.
            guard let (record, ids) = window.record(concerning: invariant, index: index, newFrom: id),
                let first = ids.firstIndex(where: { $0 >= id })
            else { continue }
            // Every traffic rule breaks at a request being sent and names it: those before `id` broke nothing new.
            guard let violation = InvariantChecker.check([invariant], record, involvingRequestsFrom: first + 1).first else { continue }
            let involved = violation.requests.compactMap { $0 >= 1 && $0 <= ids.count ? ids[$0 - 1] : nil }
            pending.append(Pending(invariant: invariant, violation: violation, ids: involved, date: Date()))
            traces[invariant.id, default: 0] += 1
            if traces[invariant.id, default: 0] >= settings.tracesPerRule { done.append(index) }
        }
        active.removeAll { done.contains($0) }
    }

    /// Saves each pending trace whose requests have all finished (or left the window) once no
    /// request has been on its way for ``quietTime``, or that waited for ``patience`` events.
    private func saveWhatIsDue(after events: Int) {
        var waiting: [Pending] = []
        var quietCheck = false
        let quiet = forcing || (!window.hasUnfinished && DispatchTime.now() >= lastEvent + Self.quietTime)
        for var trace in pending {
            trace.waited += events
            let finished = trace.ids.allSatisfy { window.exchange($0)?.finished ?? true }
            if (finished && quiet) || trace.waited >= Self.patience {
                save(trace)
            } else {
                waiting.append(trace)
                quietCheck = quietCheck || (finished && !window.hasUnfinished)
            }
        }
        pending = waiting
        if quietCheck {
            let asOf = lastEvent
            queue.asyncAfter(deadline: asOf + Self.quietTime) { [weak self] in
                // Traffic since means a later check is on its way.
                guard let self, self.lastEvent == asOf else { return }
                self.saveWhatIsDue(after: 0)
            }
        }
    }
}
