/// The keys the loader accepts, per kind of object.
///
/// These lists are the one place the format's key names are spelled; the tests compare them
/// with the JSON Schema's `properties`, which keeps the schema and the loader in sync.
package enum ScenarioKeys {
    private typealias K = ScenarioKey

    /// The document root.
    package static let topLevel = [
        K.schema, K.name, K.description, K.tags, K.given, K.exchanges, K.steps, K.expect, K.relax, K.timeLimit, K.limits, K.secrets,
        K.invariants, K.lateAnswers,
    ]
    /// `limits`.
    package static let limits = [K.wakes, K.jobs]
    /// `relax`.
    package static let relax = [K.unmatchedRequests, K.unusedExchanges]
    /// `given.clock`.
    package static let clock = [K.start]
    /// The key under `given` the loader handles itself; every other key belongs to the driver.
    package static let givenClock = K.clock
    /// One element of `exchanges`.
    package static let exchange = [K.id, K.request, K.response, K.fault, K.times, K.after, K.latency, K.release, K.optional, K.verify]
    /// `exchanges[].request`.
    package static let request = [K.method, K.path, K.pathPattern, K.query, K.headers, K.json, K.text]
    /// `exchanges[].response`.
    package static let response = [K.status, K.headers, K.json, K.text, K.file, K.base64]
    /// The body forms of a response, of which at most one may be given.
    package static let responseBodies = [K.json, K.text, K.file, K.base64]
    /// `exchanges[].verify`: an exchange left out of contract verification, with the reason.
    package static let verify = [K.skip]
    /// `exchanges[].release`.
    package static let release = [K.whenPending, K.atStep]
    /// The keys that say what kind a step is; a step has exactly one.
    package static let stepKinds = [K.do, K.group, K.start, K.await, K.advance, K.runUntilIdle, K.check]
    /// Every key each kind of step takes, by its kind key.
    package static let stepForms: [String: [String]] = [
        K.do: [K.name, K.do, K.with, K.parallel, K.expect],
        K.group: [K.name, K.group],
        K.start: [K.name, K.start, K.with, K.as],
        K.await: [K.name, K.await, K.expect],
        K.advance: [K.name, K.advance],
        K.runUntilIdle: [K.name, K.runUntilIdle],
        K.check: [K.name, K.check],
    ]
    /// Every key any step takes.
    package static let allStepKeys = [
        K.name, K.do, K.with, K.parallel, K.expect, K.group, K.start, K.as, K.await, K.advance, K.runUntilIdle, K.check,
    ]
    /// One element of a step's `group`.
    package static let groupMember = [K.do, K.with, K.expect]
    /// A step's `expect` (an outcome).
    package static let outcome = [K.ok, K.value, K.error]
    /// The top-level `expect` and a step's `check`.
    package static let expectations = [K.state, K.alerts, K.timeline, K.requests]
    /// `expect.requests`.
    package static let requestExpectations = [K.total, K.counts, K.log]
    /// One element of `expect.requests.log`.
    package static let logEntry = [K.count, K.exchange, K.method, K.path, K.headers, K.json]
    /// The fault names an exchange may give instead of a response, as URLSession reports them.
    package static let faults = ["timedOut", "notConnectedToInternet", "networkConnectionLost", "cannotConnectToHost", "cancelled"]
    /// The name `requests.counts` and `requests.log[].exchange` use for requests no exchange served.
    package static let unmatched = K.unmatched
    /// The `times` value for an exchange that serves any number of requests.
    package static let unlimited = K.unlimited
}
