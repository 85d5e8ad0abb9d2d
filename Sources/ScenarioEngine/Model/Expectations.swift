/// What must hold at a check point or at the end.
package struct Expectations: Sendable {
    /// A subset of the driver's state snapshot; `null` means absent.
    package var state: JSONValue?
    /// The exact ordered list of alerts (each matched as a subset).
    package var alerts: [JSONValue]?
    /// The exact ordered timeline of state transitions the driver reports.
    package var timeline: [JSONValue]?
    /// What the request log must show.
    package var requests: RequestExpectations?
    /// Where the expectations are written.
    package var location: ScenarioLocation?
    /// Where each expected key and element is written, by its path below the block:
    /// `state`, `state.tokens.access`, `alerts[0].title`, `timeline[1]`, `requests.total`,
    /// `requests.counts.feed-403`. Filled in by the loader.
    package var keyLocations: [String: ScenarioLocation] = [:]

    /// Creates expectations.
    package init(
        state: JSONValue? = nil, alerts: [JSONValue]? = nil, timeline: [JSONValue]? = nil,
        requests: RequestExpectations? = nil, location: ScenarioLocation? = nil
    ) {
        self.state = state
        self.alerts = alerts
        self.timeline = timeline
        self.requests = requests
        self.location = location
    }

    /// Where the check at `path` (`state.auth`, `alerts[1].title`) is written: the key itself,
    /// else the nearest key above it, else the block.
    package func location(of path: String) -> ScenarioLocation? {
        var path = Substring(path)
        while !path.isEmpty {
            if let found = keyLocations[String(path)] { return found }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = path[..<cut]
        }
        return location
    }

    /// Whether nothing is expected.
    package var isEmpty: Bool { state == nil && alerts == nil && timeline == nil && requests == nil }
}

/// What the log of requests the stack sent must show.
package struct RequestExpectations: Sendable {
    /// The total number of requests.
    package var total: Int?
    /// Requests served per exchange id (`"unmatched"` counts requests nothing served).
    package var counts: [(exchange: String, count: Int)]
    /// The whole log, in order: each entry matches `count` consecutive requests.
    package var log: [RequestLogPattern]?

    /// Creates request expectations.
    package init(total: Int? = nil, counts: [(exchange: String, count: Int)] = [], log: [RequestLogPattern]? = nil) {
        self.total = total
        self.counts = counts
        self.log = log
    }
}

/// A pattern for a run of consecutive requests in the log. Unset parts match anything.
package struct RequestLogPattern: Sendable {
    /// How many consecutive requests this entry covers.
    package var count: Int
    /// The exchange that served them (`"unmatched"` for none).
    package var exchange: String?
    /// Their method.
    package var method: String?
    /// Their path (exact).
    package var path: String?
    /// Header fields they carried (names ignore case; `null` means absent).
    package var headers: [(name: String, value: String?)]
    /// A JSON subset their bodies contained.
    package var json: JSONValue?
    /// Where the entry is written.
    package var location: ScenarioLocation?

    /// Creates a pattern.
    package init(
        count: Int = 1, exchange: String? = nil, method: String? = nil, path: String? = nil,
        headers: [(name: String, value: String?)] = [], json: JSONValue? = nil, location: ScenarioLocation? = nil
    ) {
        self.count = count
        self.exchange = exchange
        self.method = method
        self.path = path
        self.headers = headers
        self.json = json
        self.location = location
    }
}
