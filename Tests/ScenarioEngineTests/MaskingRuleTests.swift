import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Secrets a scenario names are masked in everything a result carries (transcript, failed
/// checks, error messages), and shown only with `revealSecrets`.
@Suite struct MaskingRuleTests {
    private static let token = "tok-5f2c9e1a7b3d"

    /// A stack that cannot start: its error repeats the token it was given.
    private struct RefusingDriver: ScenarioDriver {
        struct Refused: Error, CustomStringConvertible {
            var description: String
        }
        var name: String { "Refusing" }
        var actions: [ActionSpec] { [] }
        var givenKeys: [GivenSpec] { [GivenSpec("accessToken", .string, "a token")] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession {
            throw Refused(description: "the server refused token \(context.given["accessToken"]?.stringValue ?? "")")
        }
    }

    private func refused(_ options: RunPlan) async throws -> ScenarioResult {
        let text = Rules.document(steps: "", extra: #""given": { "accessToken": "\#(Self.token)" }"#)
        let scenario = try ScenarioLoader(actions: [], givenKeys: RefusingDriver().givenKeys).load(
            data: Data(text.utf8), file: "r.json", id: "r"
        ).get()
        return await ScenarioRunner(driver: RefusingDriver(), plan: options).run(scenario)
    }

    @Test func anErrorMessageIsMasked() async throws {
        let result = try await refused(RunPlan())
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("the server refused token") == true, "\(result.errorMessage ?? "")")
        #expect(result.errorMessage?.contains(Self.token) == false, "\(result.errorMessage ?? "")")
    }

    @Test func revealSecretsShowsTheErrorMessageAsIs() async throws {
        var options = RunPlan()
        options.revealSecrets = true
        let result = try await refused(options)
        #expect(result.errorMessage?.contains(Self.token) == true, "\(result.errorMessage ?? "")")
    }

    @Test func theTranscriptAndFailedChecksAreMasked() async throws {
        let result = try await Rules.run(
            exchanges:
                #"{ "id": "feed", "request": { "path": "/feed", "headers": { "Authorization": "Bearer \#(Self.token)" } }, "response": { "status": 200 } }"#,
            steps: #"""
                { "do": "send", "with": { "path": "/feed", "headers": { "Authorization": "Bearer \#(Self.token)" } } },
                { "do": "set", "with": { "key": "token", "value": "\#(Self.token)" } }
                """#,
            expect: #"{ "state": { "token": null } }"#)
        #expect(result.status == .failed)
        #expect(result.transcript.contains { $0.contains("Authorization") }, "\(result.transcript)")
        #expect(!result.transcript.joined().contains(Self.token), "\(result.transcript)")
        #expect(result.failures.first?.actual != nil)
        #expect(!result.failureText.contains(Self.token), "\(result.failureText)")
    }
}

/// Where an escape begins, only the needles whose first byte it may stand for are tried: what each
/// escape may stand for, and that a secret escaped from its first byte on is still found.
@Suite struct EscapedFirstByteTests {
    private func bytes(_ text: String) -> [UInt8] {
        Array(text.utf8).withUnsafeBufferPointer { SecretMasker.escapedBytes(at: 0, in: $0) }
    }

    @Test func eachEscapeNamesTheBytesItMayStandFor() {
        #expect(bytes("%2F") == [UInt8(ascii: "/")])
        #expect(bytes("%252F") == [UInt8(ascii: "%"), UInt8(ascii: "/")])
        #expect(bytes("&#x4e;") == [UInt8(ascii: "N")])
        #expect(bytes("&#228;") == [0xC3])
        #expect(bytes("&amp;") == [UInt8(ascii: "&")])
        #expect(bytes(#"\u0041"#) == [UInt8(ascii: "A")])
        #expect(bytes(#"\\\""#) == [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        #expect(bytes("+") == [UInt8(ascii: " ")])
        #expect(bytes("&nbsp;").isEmpty)
    }

    @Test func aSecretEscapedFromItsFirstByteIsMasked() {
        let masker = SecretMasker([(secret: "Tok-Q81zXv", mask: "‹m›"), (secret: "other-Secret-1", mask: "‹o›")])
        for written in ["%54ok-Q81zXv", "&#84;ok-Q81zXv", "&#x54;&#x6f;k-Q81zXv", #"\u0054ok-Q81zXv"#, "a&amp;b %2554ok-Q81zXv"] {
            #expect(masker.mask(written).contains("‹m›"), "\(written)")
        }
        #expect(masker.mask("a&amp;b and 100%25 of &lt;it&gt;") == "a&amp;b and 100%25 of &lt;it&gt;")
    }
}
