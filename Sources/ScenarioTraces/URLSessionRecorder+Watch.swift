import Foundation
import ScenarioEngine

extension URLSessionRecorder {
    /// How a recorder judges live traffic and how much it keeps and writes; the defaults fit a phone.
    public struct WatchSettings: Sendable, Hashable {
        /// The last exchanges judged and saved with a broken rule (500): older ones are dropped.
        public var judgedExchanges: Int
        /// The most bytes of bodies those exchanges keep (8 MiB); the oldest are dropped first.
        public var judgedBytes: Int
        /// Traces saved per rule while a watch lasts (1): a rule that keeps breaking writes no more.
        public var tracesPerRule: Int
        /// Traces kept in the folder across launches (16): the oldest the recorder wrote go first.
        public var tracesKept: Int

        /// Settings; every bound is at least 1.
        public init(judgedExchanges: Int = 500, judgedBytes: Int = 8 << 20, tracesPerRule: Int = 1, tracesKept: Int = 16) {
            self.judgedExchanges = max(1, judgedExchanges)
            self.judgedBytes = max(1, judgedBytes)
            self.tracesPerRule = max(1, tracesPerRule)
            self.tracesKept = max(1, tracesKept)
        }
    }

    /// What a watch judges: the invariants of the file that traffic alone can decide, and those it
    /// cannot (they read the app's alerts, states or actions), each with the reason.
    public struct Watch: Sendable, Hashable {
        /// An invariant a watch does not judge, and why.
        public struct NotJudged: Sendable, Hashable {
            /// The invariant's id.
            public var id: String
            /// Why the traffic cannot decide it.
            public var reason: String
        }

        /// The ids of the invariants judged, in file order.
        public var judged: [String]
        /// The invariants not judged, in file order.
        public var notJudged: [NotJudged]
    }

    /// Judges every exchange from now on against the invariants in `invariantsAt` (the
    /// `invariants.json` the team's scenarios use) and, when one breaks, writes a redacted HAR of
    /// the last exchanges to `savingTracesIn`, named by the invariant and the time, with the
    /// broken rule and the requests involved in its `comment`; `scenario import --shrink` turns it
    /// into a scenario. Then `onBreak` is called on the main actor with what broke.
    ///
    /// ```swift
    /// #if DEBUG
    ///     URLSessionRecorder.shared.install(in: configuration)
    ///     try URLSessionRecorder.shared.watch(invariantsAt: rules, savingTracesIn: folder)
    /// #endif
    /// ```
    ///
    /// Judging never holds a request up: the recorder hands each event to a queue of its own,
    /// which checks the rules over the last ``WatchSettings/judgedExchanges`` exchanges with the
    /// engine's own checker, on the device's clock (a `Retry-After` wait is wall time). Nothing is
    /// written while no rule breaks; a trace is written once the requests involved have finished,
    /// one per rule while the watch lasts (``WatchSettings/tracesPerRule``), and the folder keeps
    /// the newest ``WatchSettings/tracesKept``. Rules that need the app (its alerts, states or
    /// actions) are not judged: the returned ``Watch`` lists them, and each trace says so.
    /// Watching again replaces this watch and starts counting anew.
    ///
    /// - Throws: the rule file's problems, each naming the file, line, column and key (as
    ///   `scenario lint` prints them), or why the folder cannot be made.
    @discardableResult
    public func watch(
        invariantsAt rules: URL, savingTracesIn folder: URL, settings: WatchSettings = WatchSettings(),
        onBreak: @escaping @MainActor @Sendable (BrokenInvariant) -> Void = { _ in }
    ) throws -> Watch {
        let invariants = try InvariantFiles.load(contentsOf: rules.path).get()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let judged = invariants.filter { $0.needsTheApp == nil }
        let notJudged = invariants.compactMap { invariant in invariant.needsTheApp.map { Watch.NotJudged(id: invariant.id, reason: $0) } }
        let judge = LiveTrafficJudge(
            invariants: judged, notJudged: notJudged, rulesFile: rules.lastPathComponent, folder: folder, settings: settings,
            onBreak: onBreak)
        setJudge(judge)
        if !notJudged.isEmpty {
            let list = notJudged.map { "\($0.id) (\($0.reason))" }.joined(separator: "; ")
            FileHandle.standardError.write(
                Data("URLSessionRecorder: \(notJudged.count) of \(invariants.count) invariants are not judged from traffic: \(list)\n".utf8)
            )
        }
        return Watch(judged: judged.map(\.id), notJudged: notJudged)
    }

    /// Returns once every exchange recorded so far is judged and every trace due is written (tests
    /// and the benchmark; an app never waits for the judge).
    package func settleWatch() {
        currentJudge?.settle()
    }

    /// Stops judging; what was recorded stays. A trace waiting for its requests to finish is not written.
    public func stopWatching() {
        setJudge(nil)
    }
}
