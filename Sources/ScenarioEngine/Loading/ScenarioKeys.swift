/// The keys the loader accepts, per kind of object.
///
/// These lists are the one place the format's key names are spelled; the tests compare them
/// with the JSON Schema's `properties`, which keeps the schema and the loader in sync.
package enum ScenarioKeys {
    /// The document root.
    package static let topLevel = [
        "$schema", "name", "description", "tags", "given", "exchanges", "steps", "expect", "relax", "timeLimit", "limits", "secrets",
        "invariants", "lateAnswers",
    ]
    /// `limits`.
    package static let limits = ["wakes", "jobs"]
    /// `relax`.
    package static let relax = ["unmatchedRequests", "unusedExchanges"]
    /// `given.clock`.
    package static let clock = ["start"]
    /// The key under `given` the loader handles itself; every other key belongs to the driver.
    package static let givenClock = "clock"
    /// One element of `exchanges`.
    package static let exchange = ["id", "request", "response", "fault", "times", "after", "latency", "release", "optional", "verify"]
    /// `exchanges[].request`.
    package static let request = ["method", "path", "pathPattern", "query", "headers", "json", "text"]
    /// `exchanges[].response`.
    package static let response = ["status", "headers", "json", "text", "file", "base64"]
    /// The body forms of a response, of which at most one may be given.
    package static let responseBodies = ["json", "text", "file", "base64"]
    /// `exchanges[].verify`: an exchange left out of contract verification, with the reason.
    package static let verify = ["skip"]
    /// `exchanges[].release`.
    package static let release = ["whenPending", "atStep"]
    /// The keys that say what kind a step is; a step has exactly one.
    package static let stepKinds = ["do", "group", "start", "await", "advance", "runUntilIdle", "check"]
    /// Every key each kind of step takes, by its kind key.
    package static let stepForms: [String: [String]] = [
        "do": ["name", "do", "with", "parallel", "expect"],
        "group": ["name", "group"],
        "start": ["name", "start", "with", "as"],
        "await": ["name", "await", "expect"],
        "advance": ["name", "advance"],
        "runUntilIdle": ["name", "runUntilIdle"],
        "check": ["name", "check"],
    ]
    /// Every key any step takes.
    package static let allStepKeys = [
        "name", "do", "with", "parallel", "expect", "group", "start", "as", "await", "advance", "runUntilIdle", "check",
    ]
    /// One element of a step's `group`.
    package static let groupMember = ["do", "with", "expect"]
    /// A step's `expect` (an outcome).
    package static let outcome = ["ok", "value", "error"]
    /// The top-level `expect` and a step's `check`.
    package static let expectations = ["state", "alerts", "timeline", "requests"]
    /// `expect.requests`.
    package static let requestExpectations = ["total", "counts", "log"]
    /// One element of `expect.requests.log`.
    package static let logEntry = ["count", "exchange", "method", "path", "headers", "json"]
    /// The fault names an exchange may give instead of a response, as URLSession reports them.
    package static let faults = ["timedOut", "notConnectedToInternet", "networkConnectionLost", "cannotConnectToHost", "cancelled"]
    /// The name `requests.counts` and `requests.log[].exchange` use for requests no exchange served.
    package static let unmatched = "unmatched"
    /// The `times` value for an exchange that serves any number of requests.
    package static let unlimited = "unlimited"
}
