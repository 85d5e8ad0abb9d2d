import Foundation
import HTTPCore

/// One thing that happened between the stack and the scripted backend, as values: what the
/// backend and the scheduler append while a run goes, and what every reader of a run reads (the
/// transcript of every report, the HTML diagram, the invariants, `--repeat`, HAR export).
/// Nothing here is masked or cut: reports mask and shorten what they show. A request and its
/// answer are kept once, in the record's ``RunRecord/requests``, which the events name by number.
package struct RunEvent: Sendable {
    package enum Kind: Sendable {
        /// The stack sent request `number` (served by `exchange`, or by none).
        case sent
        /// No exchange matched: the request is answered 404, and `nearMiss` says what differed.
        case unmatched(nearMiss: String)
        /// The answer is kept back until its exchange's release condition holds.
        case held(ReleaseCondition)
        /// A held answer was let go.
        case released
        /// An explored schedule delivers this answer later than scripted.
        case late(by: Duration)
        /// The answer reached the stack: a response, or a scripted transport fault.
        case answered
        /// The client gave up waiting (its request timeout) after `waited`.
        case timedOut(waited: Duration)
        /// The app cancelled the request before its answer reached it.
        case cancelledByApp
        /// Still unanswered when the run ended; its caller got `cancelled`.
        case unansweredAtEnd
        /// From here on the run is being taken down: what follows, the app sent while it ended.
        case runOver
        /// Sent while the run was being taken down: failed at once with `cancelled`.
        case refusedAfterEnd
        /// Work reached the scenario from a thread it does not own (the run ends with it).
        case escaped(String)
    }

    /// The request it concerns (`#3`); 0 for what concerns the run (``Kind/runOver``, ``Kind/escaped(_:)``).
    package var number: Int
    /// Virtual time since the run began.
    package var at: Duration
    /// The exchange that serves the request, if any.
    package var exchange: String?
    package var kind: Kind
}
