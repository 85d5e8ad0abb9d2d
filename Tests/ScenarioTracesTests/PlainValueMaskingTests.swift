import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// A value under a credential-looking key is masked only when it is a secret: a status word, a
/// flag or a count there shows in every output, a real token there stays masked.
@Suite struct PlainValueMaskingTests {
    private static let token = "tok-5f2c9e1a7b3d"

    /// The state the stack ends in is `tokens: {refresh: true}`: `tokens.access` is absent.
    private func run(expectingAccess access: String) async throws -> ScenarioResult {
        try await Rules.run(
            steps: #"{ "do": "set", "with": { "key": "tokens", "value": { "refresh": true } } }"#,
            expect: #"{ "state": { "tokens": { "access": \#(access), "refresh": true } } }"#)
    }

    @Test(arguments: [#""present""#, #""absent""#, #""Not_Set""#, #""expired""#, "false", "3"])
    func aStatusWordOrAFlagUnderACredentialKeyShowsInTheDiff(_ access: String) async throws {
        let result = try await run(expectingAccess: access)
        #expect(result.status == .failed)
        #expect(result.failureText.contains(access), "\(result.failureText)")
        #expect(!result.failureText.contains("‹redacted"), "\(result.failureText)")
    }

    @Test func aRealTokenUnderTheSameKeyStaysMasked() async throws {
        let result = try await run(expectingAccess: #""\#(Self.token)""#)
        #expect(result.status == .failed)
        #expect(result.failureText.contains("‹redacted#1›"), "\(result.failureText)")
        #expect(!result.failureText.contains(Self.token), "\(result.failureText)")
        var options = RunPlan()
        options.revealSecrets = true
        let shown = try await Rules.run(
            Rules.document(
                steps: #"{ "do": "set", "with": { "key": "tokens", "value": { "refresh": true } } }"#,
                expect: #"{ "state": { "tokens": { "access": "\#(Self.token)" } } }"#), options: options)
        #expect(shown.failureText.contains(Self.token))
    }

    /// Every report: the word beside the token shows, the token does not.
    @Test func everyReportShowsTheWordAndMasksTheToken() async throws {
        let result = try await Rules.run(
            steps: #"{ "do": "set", "with": { "key": "tokens", "value": { "refresh": true } } }"#,
            expect: #"{ "state": { "tokens": { "access": "present", "refresh": "\#(Self.token)" } } }"#)
        let run = RunResult(scenarios: [result], wallTime: .zero)
        let reports = [
            JUnitReport.render(run), JSONReport.render(run), HTMLReport.render(run), ConsoleReport().render(run),
            GitHubAnnotations.lines(for: run).joined(separator: "\n"),
        ]
        for report in reports {
            #expect(!report.contains(Self.token))
            #expect(report.contains("present"), "\(report.prefix(400))")
        }
    }

    @Test func thePolicyNamesWhatIsPlainlyNoSecret() {
        for plain in ["present", "ABSENT", "none", "not-set", "not_present", "Valid", "revoked", "true", "null", "bearer"] {
            #expect(RedactionPolicy.isPlainlyNotSecret(plain), "\(plain)")
        }
        // A real credential, a longer word, or a word with digits stays a secret.
        for secret in ["tok-5f2c9e1a7b3d", "presentation", "hunter22", "notasecret", "s3cret", "correcthorse"] {
            #expect(!RedactionPolicy.isPlainlyNotSecret(secret), "\(secret)")
        }
        let found = SecretRedactor.secrets(in: ["tokens": ["access": "present", "refresh": .string(Self.token)], "password": "absent"])
        #expect(found == [Self.token])
    }

    /// Traces: `scenario redact`, `import` and `export` keep a status word under a credential name
    /// and replace the real token beside it.
    @Test func aTraceKeepsTheStatusWordAndRedactsTheToken() throws {
        let body = #"{"tokens":{"access":"present","refresh":"\#(Self.token)"},"password":"unset"}"#
        let entry = HARLog.Entry(
            started: Date(timeIntervalSince1970: 0), time: 1,
            request: HARLog.Request(method: "GET", url: "https://h/session"),
            response: HARLog.Response(status: 200, body: Data(body.utf8)))
        let redacted = TraceRedactor().redact(HARLog(entries: [entry])).log.harText()
        #expect(redacted.contains(#"\"access\":\"present\""#), "\(redacted)")
        #expect(redacted.contains(#"\"password\":\"unset\""#), "\(redacted)")
        #expect(!redacted.contains(Self.token))
        #expect(redacted.contains("redacted-token-1"))
    }
}
