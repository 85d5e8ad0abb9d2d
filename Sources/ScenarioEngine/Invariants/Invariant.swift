import Foundation
import HTTPCore

/// A property every run of a scenario must have, whatever its author expected: written once in
/// an `invariants.json` beside the scenarios it governs (or in one scenario's `invariants.add`),
/// checked after every run, repeat and explored schedule.
package struct Invariant: Sendable {
    /// A stable name, unique among the invariants that govern a scenario.
    package var id: String
    /// What it protects, in a sentence.
    package var description: String
    /// The property.
    package var rule: Rule
    /// Where it is written.
    package var location: ScenarioLocation

    /// Creates an invariant.
    package init(id: String, description: String, rule: Rule, location: ScenarioLocation) {
        self.id = id
        self.description = description
        self.rule = rule
        self.location = location
    }

    /// The properties a run can be checked for.
    package enum Rule: Sendable {
        /// No two requests (of those `requests` selects) carry the same `value`: a refresh token is spent once.
        case neverSentTwice(requests: RequestMatcher?, value: ValueReference)
        /// No request carries a `value` that an earlier answer to a `replacedBy` request replaced
        /// with a new one (the new one is at `answerPath` in that answer's JSON body).
        case notAfterReplaced(value: ValueReference, replacedBy: RequestMatcher?, answerPath: String)
        /// A `refresh` request goes out only for a refusal (one of `after`) of a request carrying
        /// the `value` in use: not when every refusal since the last refresh was of a value a
        /// refresh's answer (new value at `answerPath`) had already replaced, which is a late 401
        /// spending the rotated refresh token again.
        case refreshesOnlyForCurrent(value: ValueReference, refresh: RequestMatcher, answerPath: String, after: StatusSet)
        /// No request `requests` selects (carrying `carrying`, when given) is sent after any of the
        /// events `after` and before any of `until`. An answer counts as `after` only when its
        /// request was sent after the last `until`: a late answer of an ended session ends nothing.
        case noneAfter(after: [EventPattern], until: [EventPattern], requests: RequestMatcher?, carrying: ValueReference?)
        /// At most `max` requests `requests` selects are away (sent, not answered) at once.
        case maxInFlight(requests: RequestMatcher?, max: Int)
        /// A request answered with one of `after` is sent again (same method, target and body) at most `max` times.
        case maxRepeats(requests: RequestMatcher?, max: Int, after: StatusSet)
        /// No request goes to the method and path a `statuses` answer with `Retry-After` came from
        /// before that wait has passed on the virtual clock.
        case respectsRetryAfter(requests: RequestMatcher?, statuses: StatusSet)
        /// An action that fails while a `statuses` answer with `Retry-After` came back carries the
        /// server's wait, in seconds, at `field` of its error.
        case reportsRetryAfter(statuses: StatusSet, field: String)
        /// An alert (matched as a JSON subset) is shown at most `max` times per session of
        /// `sessions`. With `cause`, only a session one of whose requests got an answer `cause`
        /// matches while it lasted may show it (a late answer of an ended session makes none due);
        /// with `required` too, every such session shows it.
        case alertAtMost(alert: JSONValue, max: Int, sessions: SessionSpec, cause: AnswerMatcher?, required: Bool)
        /// A request refused with one of `after` is sent again (same method, target and body, while
        /// a caller that was waiting for it still waits) only within its own session: the copy
        /// carries no credential of another session, and nothing is repeated once a later session began.
        case repeatsWithinSession(requests: RequestMatcher?, after: StatusSet, sessions: SessionSpec)
        /// The timeline starts at one of `initial` (when given) and moves only along `transitions`.
        case timeline(initial: [String]?, transitions: [String: [String]])
    }
}

/// How a run divides into sessions, for checks that ask which session a request belongs to.
///
/// The run begins in a first session (the one `given` sets up, or none). Each 2xx answer to a
/// `startWith` request (a sign-in) begins the next one and ends the one before. A credential is
/// a value at one of `credentials` in a request; it belongs to the session whose start answer
/// handed it out at one of `issued`, or, handed out by another 2xx answer (a refresh), to the
/// session of that answer's request, or, first seen in a request, to the session under way then.
/// A request belongs to the session of the credential it carries; one without a credential, to
/// the session under way when it was sent.
package struct SessionSpec: Sendable {
    /// The requests whose 2xx answers begin a new session.
    package var startWith: [RequestMatcher]
    /// Where requests carry the credential that ties them to their session.
    package var credentials: [ValueReference]
    /// Dotted paths in answers' JSON bodies where credentials are handed out (`data.access_token`).
    package var issued: [String]

    /// Creates a division into sessions; with no `startWith`, the whole run is one session.
    package init(startWith: [RequestMatcher] = [], credentials: [ValueReference] = [], issued: [String] = []) {
        self.startWith = startWith
        self.credentials = credentials
        self.issued = issued
    }
}

/// Where a value sits in a request: a header (without its scheme), a member of a JSON body, a
/// form field or a query item.
package enum ValueReference: Sendable, Hashable, CustomStringConvertible {
    /// A header field; `scheme` (`Bearer`) is taken off the front when present.
    case header(String, scheme: String?)
    /// A member of the JSON body at a dotted path (`refresh_token`, `data.token`, `items.0.id`).
    case json(String)
    /// A field of a `application/x-www-form-urlencoded` body.
    case form(String)
    /// A query item.
    case query(String)

    /// What of a value read here a message masks: a header's credentials as every output masks
    /// them (`Bearer X` gives X, so the scheme shows as in transcripts), else the value whole.
    func secretParts(of value: String) -> [String] {
        guard case .header(let name, _) = self else { return [value] }
        var found = RedactionPolicy.Findings()
        RedactionPolicy().collect(header: name, value: value, into: &found)
        return found.values.isEmpty ? [value] : found.values
    }

    /// Where the value is, for messages: `header Authorization`.
    package var description: String {
        switch self {
        case .header(let name, _): "header \(name)"
        case .json(let path): "JSON member \(path)"
        case .form(let name): "form field \(name)"
        case .query(let name): "query item \(name)"
        }
    }
}

/// A set of HTTP statuses: numbers and classes (`"4xx"`).
package struct StatusSet: Sendable, Hashable {
    /// Single statuses.
    package var statuses: Set<Int>
    /// Classes by their first digit (`4` for `4xx`).
    package var classes: Set<Int>

    /// Creates a set.
    package init(statuses: Set<Int> = [], classes: Set<Int> = []) {
        self.statuses = statuses
        self.classes = classes
    }

    /// Whether the set holds `status`.
    package func contains(_ status: Int) -> Bool { statuses.contains(status) || classes.contains(status / 100) }

    /// Every success status.
    package static let success = StatusSet(classes: [2])
}

/// An answer of the backend, selected by the request it answered, its status and its JSON body.
package struct AnswerMatcher: Sendable {
    /// The request it answered, when that matters.
    package var request: RequestMatcher?
    /// Its status, when that matters.
    package var status: StatusSet?
    /// A JSON subset the body must hold.
    package var json: JSONValue?
    /// JSON subsets the body must not hold (any of them rules the answer out).
    package var notJSON: [JSONValue]
    /// Requests whose answers are left out.
    package var notRequest: [RequestMatcher] = []

    /// Creates an answer matcher.
    package init(request: RequestMatcher? = nil, status: StatusSet? = nil, json: JSONValue? = nil, notJSON: [JSONValue] = []) {
        self.request = request
        self.status = status
        self.json = json
        self.notJSON = notJSON
    }
}

/// A kind of event an invariant waits for: a request sent or an answer come back.
package enum EventPattern: Sendable {
    /// A request is sent.
    case sent(RequestMatcher)
    /// An answer comes back.
    case answered(AnswerMatcher)
}

/// What a scenario changes about the invariants that govern it (`invariants` in the scenario).
package struct InvariantChanges: Sendable {
    /// Invariants of this scenario only.
    package var add: [Invariant] = []
    /// Invariants switched off, by id, each with its reason.
    package var off: [String: String] = [:]

    /// Creates changes.
    package init(add: [Invariant] = [], off: [String: String] = [:]) {
        self.add = add
        self.off = off
    }
}
