import ScenarioEngine

/// One way a scripted exchange disagrees with what the backend documents or was seen to send.
package struct ContractFinding: Sendable, Hashable {
    /// What kind of disagreement.
    package enum Kind: String, Sendable, CaseIterable {
        // Against an API document.
        case pathNotDocumented = "path-not-documented"
        case methodNotDocumented = "method-not-documented"
        case parameterNotDocumented = "parameter-not-documented"
        case parameterRefused = "parameter-refused"
        case credentialsNotDocumented = "credentials-not-documented"
        case requestBodyNotDocumented = "request-body-not-documented"
        case requestBodyRefused = "request-body-refused"
        case statusNotDocumented = "status-not-documented"
        case headerMissing = "header-missing"
        case headerRefused = "header-refused"
        case mediaTypeNotDocumented = "media-type-not-documented"
        case bodyNotDocumented = "body-not-documented"
        case bodyMissing = "body-missing"
        case bodyNotJSON = "body-not-json"
        case bodyRefused = "body-refused"
        // Against an API document, about a request the app sent in the scenario's run.
        case parameterMissing = "parameter-missing"
        case credentialsMissing = "credentials-missing"
        case requestBodyMissing = "request-body-missing"
        // Against captured traffic.
        case statusNeverCaptured = "status-never-captured"
        case memberNeverCaptured = "member-never-captured"
        case typeNeverCaptured = "type-never-captured"
        case headerAlwaysCaptured = "header-always-captured"
        case retryAfterForm = "retry-after-form"
    }

    package var kind: Kind
    /// Where in the scenario: the key the finding is about (the body member, `status`, `path`, ...).
    package var scenario: ScenarioLocation
    /// Where in the document or capture: the schema keyword or entry that refused it.
    package var source: DocumentPlace?
    /// The JSON path inside the body or value, when the finding is about one.
    package var bodyPath: String?
    package var expected: String
    package var actual: String
    /// The request of the run it is about (`#3`), for a finding about what the app sent; `nil`
    /// for one about the scenario's script.
    package var sentRequest: Int?

    package init(
        _ kind: Kind, at scenario: ScenarioLocation, source: DocumentPlace?, bodyPath: String? = nil, expected: String, actual: String
    ) {
        self.kind = kind
        self.scenario = scenario
        self.source = source
        self.bodyPath = bodyPath
        self.expected = expected
        self.actual = actual
    }

    /// `Scenarios/a.json:14:9: body-refused $.error_code: expected a string, got 42 (openapi.yaml:88:13)`.
    package var description: String {
        var text = "\(scenario): \(kind.rawValue)"
        if let sentRequest { text += " in request #\(sentRequest) the app sent" }
        if let bodyPath { text += " \(bodyPath)" }
        text += ": expected \(expected), got \(actual)"
        if let source { text += " (\(source))" }
        return text
    }
}

/// A part of an exchange that could not be checked, and why: never counted as conforming.
package struct UncheckedPart: Sendable, Hashable {
    package var reason: String
    /// The keyword or entry it is about, when there is one.
    package var source: DocumentPlace?

    package init(_ reason: String, source: DocumentPlace? = nil) {
        self.reason = reason
        self.source = source
    }

    package var description: String { reason + (source.map { " (\($0))" } ?? "") }
}

/// How one exchange of a scenario fared.
package struct ExchangeVerdict: Sendable {
    /// The outcome, in order of precedence.
    package enum Outcome: String, Sendable {
        case conforms
        case findings
        case couldNotCheck = "could-not-check"
        case skipped
    }

    package var id: String
    /// Where the exchange is written.
    package var location: ScenarioLocation
    /// `GET /feed → 403`, as the scenario scripts it.
    package var route: String
    package var findings: [ContractFinding] = []
    package var unchecked: [UncheckedPart] = []
    /// `format`s met that are not checked: annotations, so the values pass them; listed, never
    /// making the exchange "could not check".
    package var formatsNotChecked: [UncheckedPart] = []
    /// The reason the scenario gives for leaving it out (`"verify": {"skip": ...}`).
    package var skipReason: String?

    package init(id: String, location: ScenarioLocation, route: String) {
        self.id = id
        self.location = location
        self.route = route
    }

    package var outcome: Outcome {
        if skipReason != nil { return .skipped }
        if !findings.isEmpty { return .findings }
        return unchecked.isEmpty ? .conforms : .couldNotCheck
    }
}

/// How one scenario fared: each of its exchanges.
package struct ScenarioVerdict: Sendable {
    package var id: String
    package var name: String
    package var location: ScenarioLocation
    package var exchanges: [ExchangeVerdict]

    package init(id: String, name: String, location: ScenarioLocation, exchanges: [ExchangeVerdict]) {
        self.id = id
        self.name = name
        self.location = location
        self.exchanges = exchanges
    }

    /// Failed on any finding; could not be checked when an exchange could not be and none failed;
    /// skipped when every exchange was skipped (or it has none); conforms otherwise.
    package var outcome: ExchangeVerdict.Outcome {
        let outcomes = exchanges.map(\.outcome)
        if outcomes.contains(.findings) { return .findings }
        if outcomes.contains(.couldNotCheck) { return .couldNotCheck }
        return outcomes.contains(.conforms) ? .conforms : .skipped
    }

    package var findings: [ContractFinding] { exchanges.flatMap(\.findings) }
}

/// Every scenario's verdict, what it was checked against, and the files that did not load.
package struct VerificationRun: Sendable {
    /// `Scenarios/openapi.yaml`, or the traces.
    package var against: String
    package var scenarios: [ScenarioVerdict] = []
    package var loadFailures: [LoadFailure] = []
    /// How many requests the scenarios' runs sent were checked; `nil` when no scenario was run.
    package var requestsChecked: Int?

    package init(against: String) { self.against = against }

    /// Exchanges by outcome.
    package var exchangeCounts: [ExchangeVerdict.Outcome: Int] {
        var counts: [ExchangeVerdict.Outcome: Int] = [:]
        for scenario in scenarios {
            for exchange in scenario.exchanges { counts[exchange.outcome, default: 0] += 1 }
        }
        return counts
    }

    package var findingCount: Int { scenarios.reduce(0) { $0 + $1.findings.count } }
}
