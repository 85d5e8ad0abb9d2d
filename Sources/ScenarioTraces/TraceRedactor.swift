import Foundation
import ScenarioEngine

/// Replaces the secrets of a capture with stable placeholders: credentials in `Authorization`,
/// `Cookie`, `Set-Cookie` and API-key style headers, JWT-shaped values anywhere, and token,
/// password, secret and code fields in JSON bodies, query strings and form bodies.
///
/// The same secret gets the same placeholder everywhere (`redacted-token-1`), so a token a login
/// answer returns still matches the `Authorization` header that later sends it, and a scenario
/// imported from the redacted trace still runs.
package struct TraceRedactor: Sendable {
    /// What a secret was found as (``SecretKind``).
    package typealias Kind = SecretKind

    /// What was redacted: how many distinct secrets of each kind, never their values.
    package struct Report: Sendable, Hashable, CustomStringConvertible {
        /// Distinct secrets per kind.
        package var counts: [Kind: Int] = [:]
        /// Total distinct secrets.
        package var total: Int { counts.values.reduce(0, +) }
        /// Bodies that are not text and whose structure could not be read, kept, by media type
        /// (`""` when none was said): a secret inside them is masked only where found otherwise.
        package var unreadBodies: [String: Int] = [:]
        /// Such bodies left out (``TraceRedactor/dropsUnreadBodies``), by media type.
        package var droppedBodies: [String: Int] = [:]

        /// `redacted 4 secrets: 2 authorization, 1 password, 1 token`.
        package var description: String {
            guard total > 0 else { return "redacted no secrets" }
            let parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
            return "redacted \(total) secret\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        }
    }

    /// Which values are secret: the built-in names, and a driver's or a scenario's own.
    private let policy: RedactionPolicy
    /// Secrets known before the capture is read (what a run knows), masked wherever they occur.
    private let known: [RedactionPolicy.Finding]
    /// Whether bodies that are not text and could not be read are left out rather than kept.
    package var dropsUnreadBodies = false

    /// Creates a redactor.
    package init() { self.init(extraKeys: []) }

    /// Creates a redactor that also takes the values of these names as secrets (a driver's
    /// `secretKeys`, a scenario's `secrets`), and `known` values wherever they are.
    package init(extraKeys: some Sequence<String>, known: [RedactionPolicy.Finding] = []) {
        policy = RedactionPolicy(extraKeys: extraKeys)
        self.known = known
    }

    /// The redactor of a run of `scenario`'s trace (`scenario export`): what the run knows as
    /// secret (the scenario's and the driver's names, the values the scenario mentions) is
    /// secret in the trace too, in bytes as in text.
    package static func exporting(_ scenario: Scenario, driver: any ScenarioDriver) -> TraceRedactor {
        TraceRedactor(
            extraKeys: scenario.secretKeys + driver.secretKeys, known: RedactionPolicy.knownSecrets(of: scenario, driver: driver))
    }

    /// The capture with every secret replaced, and what was replaced.
    package func redact(_ log: HARLog) -> (log: HARLog, report: Report) {
        var redacted = log
        let report = redact(&redacted)
        return (redacted, report)
    }

    /// Replaces every secret of `log` in place, entry by entry, so a large capture is not held
    /// twice; returns what was replaced.
    package func redact(_ log: inout HARLog) -> Report {
        var finder = SecretFinder(policy: policy)
        for index in log.entries.indices { finder.collect(log.entries[index], at: index) }
        // After the capture's own: a value it also shows keeps the kind the capture gives it.
        for finding in known { finder.found.add(finding.value, finding.kind) }
        var report = Report()
        for body in finder.unread {
            if dropsUnreadBodies {
                Self.drop(body, from: &log)
                report.droppedBodies[body.type, default: 0] += 1
            } else {
                report.unreadBodies[body.type, default: 0] += 1
            }
        }
        let secrets = finder.ordered
        guard !secrets.isEmpty else { return report }
        let replacer = Replacer(secrets: secrets, fitted: Self.inBinaryBodies(secrets, of: log, policy: policy), policy: policy)
        for index in log.entries.indices { replacer.redact(&log.entries[index]) }
        log.comment = log.comment.map(replacer.text)
        for secret in secrets { report.counts[secret.kind, default: 0] += 1 }
        return report
    }
}

/// Pass one: every secret in capture order, each with the kind it was first seen as, by the
/// shared ``RedactionPolicy``.
private struct SecretFinder {
    let policy: RedactionPolicy
    var found = RedactionPolicy.Findings()
    /// What each header field gave, for the short ones: the same few repeat in every entry.
    private var headerFindings = BoundedMemo<HARLog.Field, [RedactionPolicy.Finding]> { $0.value.utf8.count }

    init(policy: RedactionPolicy) { self.policy = policy }

    /// The secrets, without placeholders of an already redacted trace, and without values too
    /// short to mask (``SecretRedactor/minimumLength``): a `"code": 200` is a status.
    var ordered: [RedactionPolicy.Finding] {
        found.ordered.filter { $0.value.count >= SecretRedactor.minimumLength && !TraceRedactor.isPlaceholder($0.value) }
    }

    /// Bodies that are not text and whose structure could not be read.
    var unread: [TraceRedactor.UnreadBody] = []

    mutating func collect(_ entry: HARLog.Entry, at index: Int) {
        for field in entry.request.headers { collect(header: field) }
        policy.collect(url: entry.request.url, into: &found)
        if let body = entry.request.body { collect(body: Data(body.utf8), type: entry.request.mimeType, entry: index, request: true) }
        if let response = entry.response {
            for field in response.headers { collect(header: field) }
            collect(body: response.body, type: response.mimeType, entry: index, request: false)
        }
    }

    private mutating func collect(body: Data, type: String?, entry: Int, request: Bool) {
        guard BodyKind.isBinary(body, contentType: type), JSONValue.parse(body) == nil else {
            return policy.collect(body: body, contentType: type, into: &found)
        }
        if !policy.collect(binary: body, contentType: type, into: &found) {
            unread.append(TraceRedactor.UnreadBody(entry: entry, request: request, type: TraceRedactor.mediaType(type)))
        }
    }

    private mutating func collect(header field: HARLog.Field) {
        let policy = policy
        let findings = headerFindings.value(for: field) {
            var own = RedactionPolicy.Findings()
            policy.collect(header: field.name, value: field.value, into: &own)
            return own.ordered
        }
        for finding in findings { found.add(finding.value, finding.kind) }
    }
}

/// Pass two: replaces each secret, in every form it takes, by its placeholder.
private struct Replacer {
    private let masker: SecretMasker
    /// Placeholders by value, for values that JSON holds whole (short codes, numbers).
    private let placeholders: [String: String]
    private let policy: RedactionPolicy
    /// Whether each JSON key met so far names a credential (keys repeat in every entry).
    private let credentialNames = NameCache()

    /// Masked header values by value: the same few values repeat in every entry.
    private let headerValues = ValueCache()

    /// Answers remembered per key.
    private final class NameCache {
        var known: [String: Bool] = [:]
    }

    /// Masked texts remembered per text.
    private final class ValueCache {
        var masked = BoundedMemo<String, String>()
    }

    /// `fitted` holds the places in `secrets` of those that stand in a binary body: their
    /// placeholder is as long as they are, everywhere, so the body keeps its lengths and a stack
    /// that decodes it sends back what the rest of the trace shows.
    init(secrets: [RedactionPolicy.Finding], fitted: Set<Int> = [], policy: RedactionPolicy) {
        self.policy = policy
        var numbers: [TraceRedactor.Kind: Int] = [:]
        var pairs: [(secret: String, mask: String)] = []
        var placeholders: [String: String] = [:]
        for secret in secrets {
            numbers[secret.kind, default: 0] += 1
            let placeholder = "redacted-\(secret.kind.rawValue)-\(numbers[secret.kind] ?? 0)"
            pairs.append((secret.value, placeholder))
            placeholders[secret.value] = placeholder
        }
        var counted: [TraceRedactor.Kind: Int] = [:]
        for (index, secret) in secrets.enumerated() {
            counted[secret.kind, default: 0] += 1
            guard fitted.contains(index) else { continue }
            let placeholder = TraceRedactor.placeholder(secret.kind, counted[secret.kind] ?? 0, length: secret.value.utf8.count)
            pairs[index].mask = placeholder
            placeholders[secret.value] = placeholder
        }
        self.masker = SecretMasker(pairs, policy: policy)
        self.placeholders = placeholders
    }

    func redact(_ entry: inout HARLog.Entry) {
        entry.request.url = text(entry.request.url)
        entry.request.headers = entry.request.headers.map { HARLog.Field($0.name, header($0.value)) }
        entry.request.body = entry.request.body.map { body in
            // A binary body a capture kept as text (protobuf is often valid UTF-8): masked as bytes.
            guard BodyKind.isBinary(body.utf8, contentType: entry.request.mimeType) else { return self.body(body) }
            return String(decoding: masker.mask(binary: Data(body.utf8)), as: UTF8.self)
        }
        if var response = entry.response {
            response.headers = response.headers.map { HARLog.Field($0.name, header($0.value)) }
            if BodyKind.isBinary(response.body, contentType: response.mimeType) {
                response.body = masker.mask(binary: response.body)
            } else {
                response.body = Data(body(String(decoding: response.body, as: UTF8.self)).utf8)
            }
            entry.response = response
        }
    }

    /// JSON bodies are redacted value by value so numbers under secret keys become strings
    /// and the result is still JSON; other bodies as text.
    private func body(_ content: String) -> String {
        guard let json = JSONValue.parse(Data(content.utf8)), json.objectValue != nil || json.arrayValue != nil else {
            return text(content)
        }
        return redact(json: json).compactText
    }

    private func redact(json: JSONValue) -> JSONValue {
        switch json {
        case .string(let value): return .string(text(value))
        case .array(let elements): return .array(elements.map(redact(json:)))
        case .object(let object):
            return .object(
                JSONObject(
                    object.map { member -> (String, JSONValue) in
                        if isSecretName(member.key) {
                            if case .number = member.value, !policy.holdsCounts(member.key),
                                let placeholder = placeholders[member.value.compactText]
                            {
                                return (member.key, .string(placeholder))
                            }
                            if case .string(let value) = member.value, let placeholder = placeholders[value] {
                                return (member.key, .string(placeholder))
                            }
                        }
                        return (member.key, redact(json: member.value))
                    }))
        default: return json
        }
    }

    func text(_ value: String) -> String { masker.mask(value) }

    /// A header value masked, once per distinct short value: the entries then also share the result.
    private func header(_ value: String) -> String {
        headerValues.masked.value(for: value) { text(value) }
    }

    private func isSecretName(_ key: String) -> Bool {
        if let known = credentialNames.known[key] { return known }
        let secret = policy.isCredentialName(key) && !policy.isContainerName(key)
        if credentialNames.known.count < 10_000 { credentialNames.known[key] = secret }
        return secret
    }
}
