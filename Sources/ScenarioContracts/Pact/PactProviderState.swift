import Foundation
import HTTPCore
import ScenarioEngine
import ScenarioTraces

/// The parameters of an interaction's provider state: where in its scenario the request stands,
/// so a state handler can set the backend up as it was at that moment of the run.
///
/// - `scenario`, `exchange`: the scenario's id and the exchange that answers;
/// - `call`: which request to this method and path of the run it is (1 for the first), so a
///   sequence (503, then 200) gives distinct states;
/// - `answeredBefore`: the exchanges that had answered before it was sent, in order;
/// - `status`: the status the backend answers with in this state, and `mediaType` the media
///   type of its body (absent when there is no body; `null` for a body that says none, with
///   `bodyKind`: `html`, `text`, `json` or `bytes`);
/// - `values`: the names the interaction's generators take from the state handler's answer
///   (credentials such as `accessToken`, a path pattern's parameters such as `id`);
/// - `spent`: those of them an earlier request of the run already used and got a success for
///   (a refresh token), which the backend must hold as used.
enum PactProviderState {
    static func params(
        scenario: Scenario, exchange: Exchange, sent: RunRecord.Request, record: RunRecord, answer: HTTPResponse,
        credentials: [PactCredentials.Credential], pattern: String?, policy: RedactionPolicy
    ) -> JSONObject {
        let earlier = record.requests.filter { $0.order < sent.order }
        let call = earlier.filter { $0.request.method == sent.request.method && $0.request.path == sent.request.path }.count + 1
        var answered: [String] = []
        for request in record.requests {
            guard let id = request.exchange, let answer = request.answer, answer.order < sent.order, !answered.contains(id) else {
                continue
            }
            answered.append(id)
        }
        var values: [String] = []
        for credential in credentials where !values.contains(credential.name) { values.append(credential.name) }
        for name in pattern.map(parameterNames) ?? [] where !values.contains(name) { values.append(name) }
        // A credential sent in a body and answered with a success is used up (a refresh token, a code).
        var used: Set<String> = []
        for request in earlier where (request.answer?.status).map({ (200..<300).contains($0) }) == true {
            for credential in PactCredentials(request.request, policy: policy, known: []).found {
                if case .body = credential.place { used.insert(credential.value) }
            }
        }
        var spent: [String] = []
        for credential in credentials where used.contains(credential.value) && !spent.contains(credential.name) {
            spent.append(credential.name)
        }
        var params: JSONObject = [
            "scenario": .string(scenario.id), "exchange": .string(exchange.id), "call": .number(Double(call)),
            "answeredBefore": .array(answered.map { .string($0) }), "status": .number(Double(answer.status.code)),
        ]
        if !answer.body.isEmpty {
            // null: a body that says no type (a gateway's text), which the state must set up as such.
            params["mediaType"] = answer.headers[HTTPFields.Name.contentType].map { .string(MediaTypes.essence($0)) } ?? .null
            // What such a body is (Pact tells a body's type from its content then): a page, text, JSON or bytes.
            if answer.headers[HTTPFields.Name.contentType] == nil { params["bodyKind"] = .string(bodyKind(answer.body)) }
        }
        params["values"] = .array(values.map { .string($0) })
        params["spent"] = .array(spent.map { .string($0) })
        return params
    }

    static func bodyKind(_ body: Data) -> String {
        guard let text = String(data: body, encoding: .utf8) else { return "bytes" }
        if text.drop(while: \.isWhitespace).hasPrefix("<") { return "html" }
        return JSONValue.parse(body) == nil ? "text" : "json"
    }

    /// `id` of `/users/{id}/block`.
    static func parameterNames(_ pattern: String) -> [String] {
        pattern.split(separator: "/").compactMap { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return nil }
            return String(part.dropFirst().dropLast())
        }
    }
}
