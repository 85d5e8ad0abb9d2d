import Foundation
import HTTPCore
import ScenarioEngine
import ScenarioTraces

/// Scripted exchanges as a Pact specification v4 file for one consumer-provider pair, made from
/// a run of each scenario: an interaction per distinct request the app sent that an exchange
/// answered, the request as the app sent it (method, path, query, headers with its own
/// `Content-Type`, body) with each credential a provider-state-injected value (`Bearer
/// ${accessToken}`), and the scripted answer with type matchers for its body (loose on answers, as
/// Pact is). Each interaction's provider state names the scenario and where the run stands (the
/// exchange, which call of the route, what was answered before, which credentials are already
/// spent), so the answers of a sequence are distinct interactions a state handler can set up.
/// Secrets are replaced by the stable placeholders `scenario redact` writes unless kept.
package struct PactExport {
    /// An exchange that is not exported, and why.
    package struct LeftOut: Sendable {
        package var location: ScenarioLocation
        package var exchange: String
        package var reason: String
    }

    /// A run of a scenario, as the export reads it.
    package struct Run: Sendable {
        /// What the app sent, and when.
        package var record: RunRecord
        /// Why the run is not one to take requests from (it failed or erred), if it is not.
        package var failure: String?

        package init(record: RunRecord, failure: String? = nil) {
            self.record = record
            self.failure = failure
        }
    }

    /// A request on its way to an interaction.
    struct Draft {
        var description: String
        var key: String
        var state: String
        var params: JSONObject
        var comment: String
        /// `/users/{id}/block` for a path pattern: the path gets a provider-state generator.
        var pattern: String?
        var request: HARLog.Request
        var response: HARLog.Response
        var credentials: [PactCredentials.Credential]
    }

    package let consumer: String
    package let provider: String
    var drafts: [Draft] = []
    package private(set) var leftOut: [LeftOut] = []
    /// Names whose values are secret (the driver's, the scenarios'), and values the scenarios
    /// mention as secret: the placeholders cover them wherever they stand.
    var secretKeys: Set<String> = []
    var knownSecrets: [RedactionPolicy.Finding] = []

    package init(consumer: String, provider: String) {
        self.consumer = consumer
        self.provider = provider
    }

    /// How many interactions the file will have.
    package var interactionCount: Int { drafts.count }

    /// `consumer-provider.json`, with anything but letters, digits, `.`, `-` and `_` made `_`.
    package var fileName: String {
        func safe(_ name: String) -> String {
            String(
                name.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                        ? Character($0) : "_"
                })
        }
        return "\(safe(consumer))-\(safe(provider)).json"
    }

    /// Adds the exchanges of `scenario` (whose parsed file is `root`) with the requests its `run`
    /// sent them; `driver` names what is secret. `refused` leaves out exchanges a check refused
    /// (an API document's findings), with the reason.
    package mutating func add(
        _ scenario: Scenario, root: JSONNode, run: Run, driver: any ScenarioDriver, refused: [String: String] = [:]
    ) {
        let policy = RedactionPolicy(scenario: scenario, driver: driver)
        let known = RedactionPolicy.knownSecrets(of: scenario, driver: driver)
        secretKeys.formUnion(scenario.secretKeys + driver.secretKeys)
        knownSecrets += known
        let knownValues = Set(known.map(\.value))
        for (exchange, source) in ExchangeSource.pairs(scenario, root: root) {
            let leave = { (reason: String) in LeftOut(location: source.location(), exchange: exchange.id, reason: reason) }
            if let reason = source.skipReason {
                leftOut.append(leave("left out of verification: \(reason)"))
                continue
            }
            guard case .response(let response) = exchange.reply else {
                leftOut.append(leave("a scripted fault is no answer a provider can be verified against"))
                continue
            }
            if let reason = refused[exchange.id] {
                leftOut.append(leave(reason))
                continue
            }
            if let failure = run.failure {
                leftOut.append(leave("the scenario \(failure), so its run is not what the app does; fix it first"))
                continue
            }
            let sent = run.record.requests.filter { $0.exchange == exchange.id }
            guard !sent.isEmpty else {
                leftOut.append(leave("the run sent no request this exchange answered (it is optional, or was not reached)"))
                continue
            }
            // Requests sent alike (ten concurrent ones) are one interaction.
            var distinct: [RunRecord.Request] = []
            for request in sent where !distinct.contains(where: { $0.request == request.request }) { distinct.append(request) }
            for (index, request) in distinct.enumerated() {
                drafts.append(
                    draft(
                        scenario, exchange, response: response, sent: request, record: run.record,
                        number: distinct.count > 1 ? index + 1 : nil, policy: policy, known: knownValues))
            }
        }
    }

    private func draft(
        _ scenario: Scenario, _ exchange: Exchange, response: HTTPResponse, sent: RunRecord.Request, record: RunRecord, number: Int?,
        policy: RedactionPolicy, known: Set<String>
    ) -> Draft {
        let request = sent.request
        let credentials = PactCredentials(request, policy: policy, known: known)
        let contentType = request.headers[HTTPFields.Name.contentType]
        let harRequest = HARLog.Request(
            method: request.method.rawValue, url: "http://provider" + request.target,
            headers: request.headers.map { HARLog.Field($0.name, $0.value) },
            body: request.body.map { String(decoding: $0, as: UTF8.self) }, mimeType: contentType)
        let answer = HARLog.Response(
            status: response.status.code, headers: response.headers.map { HARLog.Field($0.name, $0.value) }, body: response.body,
            mimeType: response.headers[HTTPFields.Name.contentType])
        var pattern: String?
        if case .pattern(let written)? = exchange.request.path, !written.contains("*") { pattern = written }
        let suffix = number.map { " #\($0)" } ?? ""
        let params = PactProviderState.params(
            scenario: scenario, exchange: exchange, sent: sent, record: record, answer: response,
            credentials: credentials.found, pattern: pattern, policy: policy)
        return Draft(
            description: "\(scenario.name): \(exchange.id)\(suffix)", key: Self.key(scenario.id + "\n" + exchange.id + suffix),
            state: "\(scenario.name): \(exchange.id)\(suffix)", params: params,
            comment: "\(exchange.location) exchange '\(exchange.id)', request #\(sent.number) of the run", pattern: pattern,
            request: harRequest, response: answer, credentials: credentials.found)
    }

    /// A stable key: FNV-1a over the scenario and exchange ids, in hexadecimal.
    static func key(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    // MARK: The file

    /// The Pact v4 document: secrets replaced by placeholders unless `keepSecrets`.
    package func document(keepSecrets: Bool, version: String) -> JSONValue {
        var log = HARLog(
            creator: "SessionScenarios",
            entries: drafts.map {
                HARLog.Entry(started: Date(timeIntervalSince1970: 0), time: 0, request: $0.request, response: $0.response)
            })
        if !keepSecrets { _ = TraceRedactor(extraKeys: secretKeys.sorted(), known: knownSecrets).redact(&log) }
        let interactions = zip(drafts, log.entries).map { draft, entry in interaction(draft, entry) }
        return [
            "consumer": ["name": .string(consumer)],
            "provider": ["name": .string(provider)],
            "interactions": .array(interactions),
            "metadata": ["pactSpecification": ["version": "4.0"], "scenario": ["version": .string(version)]],
        ]
    }

    private func interaction(_ draft: Draft, _ entry: HARLog.Entry) -> JSONValue {
        var object: JSONObject = [
            "type": "Synchronous/HTTP", "description": .string(draft.description), "key": .string(draft.key),
            "providerStates": [["name": .string(draft.state), "params": .object(draft.params)]],
            "comments": ["testname": .string(draft.state), "text": [.string(draft.comment)]],
        ]
        object["request"] = PactRequest.json(draft, entry.request)
        if let response = entry.response { object["response"] = Self.response(response) }
        return .object(object)
    }

    private static func response(_ response: HARLog.Response) -> JSONValue {
        var object: JSONObject = ["status": .number(Double(response.status))]
        if !response.headers.isEmpty { object["headers"] = PactRequest.headers(response.headers) }
        var rules = JSONObject()
        let headerRules = PactMatchers.headerRules(response.headers)
        if !headerRules.isEmpty { rules["header"] = .object(headerRules) }
        if !response.body.isEmpty {
            // The answer's own Content-Type, or none: a type is never made up for a body that has none.
            let contentType = response.mimeType
            if let contentType, MediaTypes.isJSON(MediaTypes.essence(contentType)), let json = JSONValue.parse(response.body) {
                object["body"] = PactRequest.body(content: json, contentType: contentType, encoded: false)
                let matchers = PactMatchers.typeRules(for: json)
                if !matchers.isEmpty { rules["body"] = .object(matchers) }
            } else if let text = String(data: response.body, encoding: .utf8) {
                object["body"] = PactRequest.body(content: .string(text), contentType: contentType, encoded: false)
                // A text answer's words are the gateway's or the page's, not the contract's: by type.
                rules["body"] = ["$": PactMatchers.rule(["match": "type"])]
            } else {
                object["body"] = PactRequest.body(
                    content: .string(response.body.base64EncodedString()), contentType: contentType, encoded: true)
            }
        }
        if !rules.isEmpty { object["matchingRules"] = .object(rules) }
        return .object(object)
    }
}
