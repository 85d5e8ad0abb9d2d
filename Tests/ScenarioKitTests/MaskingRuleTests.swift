import Foundation
import Testing

@testable import ScenarioKit

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

    private func refused(_ options: RunOptions) async throws -> ScenarioResult {
        let text = Rules.document(steps: "", extra: #""given": { "accessToken": "\#(Self.token)" }"#)
        let scenario = try ScenarioLoader(actions: [], givenKeys: RefusingDriver().givenKeys).load(
            data: Data(text.utf8), file: "r.json", id: "r"
        ).get()
        return await ScenarioRunner(driver: RefusingDriver(), options: options).run(scenario)
    }

    @Test func anErrorMessageIsMasked() async throws {
        let result = try await refused(RunOptions())
        #expect(result.status == .error)
        #expect(result.errorMessage?.contains("the server refused token") == true, "\(result.errorMessage ?? "")")
        #expect(result.errorMessage?.contains(Self.token) == false, "\(result.errorMessage ?? "")")
    }

    @Test func revealSecretsShowsTheErrorMessageAsIs() async throws {
        var options = RunOptions()
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
