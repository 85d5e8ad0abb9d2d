/// What a failed check, or a run that could not finish, is about, as data: the invariant by its
/// id, a request no exchange matched by method and path, an exchange left unused by its id, an
/// expectation by its key, an action's outcome by the action, or how a run could not finish.
/// Reports render it and the shrinker compares it; nothing reads a label or a message back.
public struct FailureSubject: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An invariant broke; the name is its id.
        case invariant
        /// A request matched no exchange; the name is its method and path (`GET /feed`).
        case unmatched
        /// An exchange was not used as scripted; the name is its id.
        case unused
        /// An expectation of `expect` or a `check` step did not hold; the name is its key
        /// (`state.auth`, `alerts`, `requests.total`, `requests.counts.feed`, `requests.log`).
        case expectation
        /// An action did not end as its step expects; the name is the action.
        case outcome
        /// The run could not finish: something waits that nothing can end.
        case stuck
        /// Work of the scenario ran on a thread the scenario does not own.
        case escaped
        /// Another fault of the run; the name says which (`busy`, `driver start`, `blocked thread`).
        case error
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The invariant, request, exchange, key, action or fault it is about (see ``Kind``).
    public var name: String
    /// What the run saw there, for a state key, the alerts, the timeline, an outcome or the
    /// request log (`got "loading"`, `failed with forbidden`): failing at the same key with another
    /// value is failing another way. Counts are not kept: they change with the run's length.
    public var observed: String?

    /// Creates a subject.
    public init(_ kind: Kind, _ name: String = "", observed: String? = nil) {
        self.kind = kind
        self.name = name
        self.observed = observed
    }

    /// How a report names it: `invariant refresh-token-spent-once`, `state.auth: got "loading"`.
    public var description: String { observed.map { "\(named): \($0)" } ?? named }

    private var named: String {
        switch kind {
        case .invariant: "invariant \(name)"
        case .unmatched: "unmatched request \(name)"
        case .unused: "unused exchange \(name)"
        case .outcome: "outcome of \(name)"
        case .error: "error: \(name)"
        case .stuck, .escaped: kind.rawValue
        case .expectation: name
        }
    }

    /// Whether it is a cause the report leads with rather than a symptom: a request no exchange
    /// matched, or an exchange left unused.
    package var isCause: Bool { kind == .unmatched || kind == .unused }
}
