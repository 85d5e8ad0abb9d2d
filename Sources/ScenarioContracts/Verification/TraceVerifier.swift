import Foundation
import HTTPCore
import ScenarioEngine
import ScenarioTraces

/// Checks scripted exchanges against answers captured from the real backend (by the recorder,
/// Proxyman, Charles, mitmproxy or a browser): for the same method and route, was the scripted
/// status ever seen; are the scripted body's members ones the captures have, with types they use;
/// does the script leave out a header every capture sends; is `Retry-After` in a form the captures
/// use. A route no capture answers could not be checked, and is never counted as passing.
package struct TraceVerifier: ExchangeVerifier {
    /// One captured answer, with the file and entry it came from.
    struct Capture: Sendable {
        var method: String
        var paths: [String]
        var response: HARLog.Response
        var place: DocumentPlace
    }

    let captures: [Capture]
    let entryCount: Int

    /// Response headers every server or proxy adds: not something a scenario leaves out.
    static let transportHeaders: Set<String> = [
        "date", "server", "content-length", "connection", "keep-alive", "transfer-encoding", "via", "vary", "etag", "last-modified",
        "cache-control", "expires", "pragma", "age", "alt-svc", "strict-transport-security", "x-request-id", "x-correlation-id",
        "cf-ray", "cf-cache-status", "report-to", "nel", "x-frame-options", "x-content-type-options", "x-xss-protection",
        "content-security-policy", "referrer-policy", "set-cookie", "content-encoding", "accept-ranges", "permissions-policy",
        "x-powered-by", "x-amz-cf-id", "x-amz-cf-pop", "x-cache", "x-served-by", "x-timer", "access-control-allow-origin",
        "access-control-allow-credentials", "access-control-expose-headers", "access-control-allow-headers",
        "access-control-allow-methods", "access-control-max-age", "content-type",
    ]

    package init(logs: [(file: String, log: HARLog)]) {
        var captures: [Capture] = []
        var count = 0
        for (file, log) in logs {
            count += log.entries.count
            for entry in log.entries {
                guard let response = entry.response, let components = URLComponents(string: entry.request.url) else { continue }
                let raw = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
                let decoded = raw.removingPercentEncoding ?? raw
                captures.append(
                    Capture(
                        method: entry.request.method.uppercased(), paths: raw == decoded ? [raw] : [raw, decoded], response: response,
                        place: DocumentPlace(file: file, line: entry.line, column: entry.column)))
            }
        }
        self.captures = captures
        self.entryCount = count
    }

    package func check(_ exchange: Exchange, source: ExchangeSource, into verdict: inout ExchangeVerdict) {
        guard case .response(let response) = exchange.reply else {
            verdict.unchecked.append(UncheckedPart("a scripted fault is no answer a capture can show"))
            return
        }
        let method = exchange.request.method?.rawValue.uppercased()
        let route = captures.filter { capture in
            (method == nil || capture.method == method) && capture.paths.contains { path in exchange.request.path?.matches(path) ?? true }
        }
        guard let first = route.first else {
            verdict.unchecked.append(
                UncheckedPart(
                    "no capture answers \(OpenAPIVerifier.pathText(exchange.request.path)) (\(entryCount) captured entries looked at)"))
            return
        }
        let code = response.status.code
        let sameStatus = route.filter { $0.response.status == code }
        guard let example = sameStatus.first else {
            let seen = Set(route.map(\.response.status)).sorted().map(String.init).joined(separator: ", ")
            verdict.findings.append(
                ContractFinding(
                    .statusNeverCaptured, at: source.location(ScenarioKey.response, ScenarioKey.status), source: first.place,
                    expected:
                        "a status \(route.count == 1 ? "the capture" : "the \(route.count) captures") of this route show\(route.count == 1 ? "s" : "") (\(seen))",
                    actual: String(code)))
            return
        }
        compareHeaders(response, with: sameStatus, source: source, into: &verdict)
        compareBody(response, with: sameStatus, example: example, source: source, into: &verdict)
    }

    private func compareHeaders(
        _ response: HTTPResponse, with captures: [Capture], source: ExchangeSource, into verdict: inout ExchangeVerdict
    ) {
        var always: [String: String] = [:]
        for field in captures[0].response.headers where !Self.transportHeaders.contains(field.name.lowercased()) {
            always[field.name.lowercased()] = field.name
        }
        for capture in captures.dropFirst() {
            let names = Set(capture.response.headers.map { $0.name.lowercased() })
            always = always.filter { names.contains($0.key) }
        }
        for name in always.keys.sorted().compactMap({ always[$0] }) where response.headers[name] == nil {
            verdict.findings.append(
                ContractFinding(
                    .headerAlwaysCaptured, at: source.location(ScenarioKey.response, ScenarioKey.headers), source: captures[0].place,
                    expected: "a header \(name) (each of the \(captures.count) captures sends it)", actual: "none"))
        }
        guard let scripted = response.headers["Retry-After"] else { return }
        let captured = captures.compactMap { $0.response.headers.first(named: "Retry-After") }
        guard !captured.isEmpty else { return }
        let forms = Set(captured.map(Self.retryAfterForm))
        let form = Self.retryAfterForm(scripted)
        if !forms.contains(form) {
            verdict.findings.append(
                ContractFinding(
                    .retryAfterForm, at: source.location(ScenarioKey.response, ScenarioKey.headers, "Retry-After"),
                    source: captures[0].place,
                    expected: "Retry-After as \(forms.sorted().joined(separator: " or ")) (captured: \(captured[0]))",
                    actual: "\(form): \(scripted)"))
        }
    }

    /// `delta-seconds`, `an HTTP-date`, or `another form`.
    static func retryAfterForm(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) { return "delta-seconds" }
        return RetryAfterValue.wait(trimmed, at: Date(timeIntervalSince1970: 0)) != nil ? "an HTTP-date" : "another form"
    }
}
