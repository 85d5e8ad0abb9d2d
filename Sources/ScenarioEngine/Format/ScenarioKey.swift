/// The scenario format's key names, each spelled here and nowhere else: the loader reads them,
/// and everything that writes or edits a scenario (import, shrink, init, export, verify) writes
/// them through these. ``ScenarioKeys`` says which keys each kind of object takes.
package enum ScenarioKey {
    // The document.
    package static let schema = "$schema"
    package static let name = "name"
    package static let description = "description"
    package static let tags = "tags"
    package static let given = "given"
    package static let exchanges = "exchanges"
    package static let steps = "steps"
    package static let expect = "expect"
    package static let relax = "relax"
    package static let timeLimit = "timeLimit"
    package static let limits = "limits"
    package static let secrets = "secrets"
    package static let invariants = "invariants"
    package static let lateAnswers = "lateAnswers"

    // `limits`, `relax`, `given.clock` and a scenario's `invariants`.
    package static let wakes = "wakes"
    package static let jobs = "jobs"
    package static let unmatchedRequests = "unmatchedRequests"
    package static let unusedExchanges = "unusedExchanges"
    package static let clock = "clock"
    package static let start = "start"
    package static let add = "add"
    package static let off = "off"

    // An exchange, its matcher and its answer.
    package static let id = "id"
    package static let request = "request"
    package static let response = "response"
    package static let fault = "fault"
    package static let times = "times"
    package static let after = "after"
    package static let latency = "latency"
    package static let release = "release"
    package static let optional = "optional"
    package static let verify = "verify"
    package static let skip = "skip"
    package static let whenPending = "whenPending"
    package static let atStep = "atStep"
    package static let method = "method"
    package static let path = "path"
    package static let pathPattern = "pathPattern"
    package static let query = "query"
    package static let headers = "headers"
    package static let json = "json"
    package static let text = "text"
    package static let status = "status"
    package static let file = "file"
    package static let base64 = "base64"

    // Steps.
    package static let `do` = "do"
    package static let with = "with"
    package static let parallel = "parallel"
    package static let group = "group"
    package static let `as` = "as"
    package static let `await` = "await"
    package static let advance = "advance"
    package static let runUntilIdle = "runUntilIdle"
    package static let check = "check"

    // Outcomes and expectations.
    package static let ok = "ok"
    package static let value = "value"
    package static let error = "error"
    package static let state = "state"
    package static let alerts = "alerts"
    package static let timeline = "timeline"
    package static let requests = "requests"
    package static let total = "total"
    package static let counts = "counts"
    package static let log = "log"
    package static let count = "count"
    package static let exchange = "exchange"

    // Values.
    /// The `times` value for an exchange that serves any number of requests.
    package static let unlimited = "unlimited"
    /// The name `requests.counts` and `requests.log[].exchange` use for requests no exchange served.
    package static let unmatched = "unmatched"
}
