import Foundation
import ScenarioEngine
import ScenarioTraces
import Testing

/// What a driver's `traceImport` builds is checked against the driver's own declarations, and a
/// mistake there is told as the driver's, naming what to fix; the `given` spelling before
/// `Credentials` still works.
@Suite struct TraceImportDriverTests {
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    /// `given` as api.md advises declaring it: a session whose refresh token may be left out.
    static let givenKeys = [
        GivenSpec(
            "session", .object, "stored tokens",
            fields: [
                ArgumentSpec("accessToken", .string, required: true, "the stored access token"),
                ArgumentSpec("refreshToken", .string, "the stored refresh token"),
            ])
    ]
    static let actions = [
        ActionSpec(
            "request", "any request",
            arguments: [
                ArgumentSpec("method", .string, "method"), ArgumentSpec("path", .string, required: true, "path"),
                ArgumentSpec("query", .object, "query"), ArgumentSpec("json", .any, "body"),
            ]),
        ActionSpec("signIn", "sign in", arguments: [ArgumentSpec("email", .string, required: true, "the email")]),
    ]

    /// A trace that starts signed in: a bearer token it never obtained, no refresh token.
    static func signedInTrace(refreshToken: String? = nil) -> HARLog {
        var entries = [
            HARLog.Entry(
                started: origin, time: 10,
                request: HARLog.Request(method: "GET", url: "https://a/feed", headers: [HARLog.Field("Authorization", "Bearer acc-1")]),
                response: HARLog.Response(status: 200, body: Data(#"{"items":[]}"#.utf8)))
        ]
        if let refreshToken {
            entries.append(
                HARLog.Entry(
                    started: origin.addingTimeInterval(1), time: 10,
                    request: HARLog.Request(method: "POST", url: "https://a/refresh", body: #"{"refreshToken":"\#(refreshToken)"}"#),
                    response: HARLog.Response(status: 200, body: Data(#"{"ok":true}"#.utf8))))
        }
        return HARLog(entries: entries)
    }

    static func importing(_ spec: TraceImportSpec, _ log: HARLog = signedInTrace()) throws(TraceImporter.Failure) -> String {
        try TraceImporter(spec: spec).importScenario(from: log, file: "t.har", actions: actions, givenKeys: givenKeys).text
    }

    /// The snippet the README and api.md showed: `?? nil` writes `"refreshToken": null`.
    static let nullRefreshSpec = TraceImportSpec(
        requestAction: "request",
        given: { credentials in
            guard let access = credentials.accessToken else { return [:] }
            return ["session": ["accessToken": .string(access), "refreshToken": credentials.refreshToken.map { .string($0) } ?? nil]]
        })

    @Test func aGivenTheDriversOwnKeysRefuseIsTheDriversMistake() throws {
        #expect {
            _ = try Self.importing(Self.nullRefreshSpec)
        } throws: { error in
            let text = "\(error)"
            return text.contains("the driver's traceImport") && text.contains("given") && text.contains("refreshToken")
                && text.contains("leave the member out") && !text.contains("please report")
        }
    }

    /// The corrected snippet of api.md imports both a trace without a refresh token and one with.
    @Test func theDocumentedSnippetImportsWithAndWithoutARefreshToken() throws {
        let spec = TraceImportSpec(
            requestAction: "request",
            given: { credentials in
                guard let access = credentials.accessToken else { return [:] }
                var session: JSONObject = ["accessToken": .string(access)]
                if let refresh = credentials.refreshToken { session["refreshToken"] = .string(refresh) }
                return ["session": .object(session)]
            })
        let without = try #require(JSONValue.parse(Data(try Self.importing(spec).utf8)))
        #expect(without["given"]?["session"] == ["accessToken": "acc-1"])
        let with = try #require(JSONValue.parse(Data(try Self.importing(spec, Self.signedInTrace(refreshToken: "ref-2")).utf8)))
        #expect(with["given"]?["session"] == ["accessToken": "acc-1", "refreshToken": "ref-2"])
    }

    @Test func aGivenThatIsNoObjectIsRefusedAsTheDrivers() throws {
        let spec = TraceImportSpec(requestAction: "request", given: { credentials in .string(credentials.accessToken ?? "") })
        #expect {
            _ = try Self.importing(spec)
        } throws: { error in
            "\(error)".contains("the driver's traceImport") && "\(error)".contains("an object")
        }
    }

    @Test func anActionTheDriverDoesNotDeclareIsTheDriversMistake() throws {
        #expect {
            _ = try Self.importing(TraceImportSpec(requestAction: "send", given: { _ in [:] }))
        } throws: { error in
            let text = "\(error)"
            return text.contains("the driver's traceImport") && text.contains("'send'") && !text.contains("please report")
        }
        // A rule whose argument the action does not take.
        let rule = TraceImportSpec.ActionRule(.init("POST", "/login"), action: "signIn", arguments: ["user": "email"])
        let log = HARLog(entries: [
            HARLog.Entry(
                started: Self.origin, time: 10,
                request: HARLog.Request(method: "POST", url: "https://a/login", body: #"{"email":"a@b.c"}"#),
                response: HARLog.Response(status: 200))
        ])
        #expect {
            _ = try Self.importing(TraceImportSpec(requestAction: "request", actionRules: [rule]), log)
        } throws: { error in
            "\(error)".contains("the driver's traceImport") && "\(error)".contains("signIn") && !"\(error)".contains("please report")
        }
    }

    /// A driver written against the spelling before `Credentials` still builds and imports.
    @Test func theOldGivenSpellingStillWorks() throws {
        let driver: any ScenarioDriver = OldSpellingDriver()
        let text = try TraceImporter(spec: driver.traceImport).importScenario(
            from: Self.signedInTrace(refreshToken: "ref-2"), file: "t.har", actions: driver.actions, givenKeys: driver.givenKeys
        ).text
        let scenario = try #require(JSONValue.parse(Data(text.utf8)))
        #expect(scenario["given"]?["session"] == ["accessToken": "acc-1", "refreshToken": "ref-2"])
    }
}

/// An adopter's driver as it was written before `given` took `Credentials`. Its `traceImport` is
/// deprecated itself, so the deprecated initializer it calls warns nobody: the build stays clean,
/// and through the protocol the test calls it as the engine does.
private struct OldSpellingDriver: ScenarioDriver {
    var name: String { "OldSpelling" }
    var actions: [ActionSpec] { TraceImportDriverTests.actions }
    var givenKeys: [GivenSpec] { TraceImportDriverTests.givenKeys }
    func makeSession(_ context: DriverContext) async throws -> any DriverSession { throw CancellationError() }

    @available(*, deprecated, message: "the spelling before TraceImportSpec.Credentials, on purpose")
    var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request",
            given: { accessToken, refreshToken in
                guard let accessToken else { return [:] }
                var session: JSONObject = ["accessToken": .string(accessToken)]
                if let refreshToken { session["refreshToken"] = .string(refreshToken) }
                return ["session": .object(session)]
            })
    }
}

extension TraceImportDriverTests {
    /// A request action that requires an argument the import leaves out of some calls (`method`,
    /// for a GET) or never gives (`headers`) is refused before anything is drafted, naming it.
    @Test(arguments: [("method", "leaves out of calls that do not need it (a GET)"), ("headers", "never gives")])
    func aRequiredArgumentTheImportLeavesOutIsNamedFirst(_ argument: String, _ said: String) throws {
        let actions = [
            ActionSpec(
                "request", "any request",
                arguments: [
                    ArgumentSpec("path", .string, required: true, "path"), ArgumentSpec(argument, .string, required: true, argument),
                ])
        ]
        let spec = TraceImportSpec(requestAction: "request", given: { _ in ["session": ["accessToken": "x"]] })
        #expect {
            _ = try TraceImporter(spec: spec).importScenario(
                from: Self.signedInTrace(), file: "t.har", actions: actions, givenKeys: Self.givenKeys)
        } throws: { error in
            let text = "\(error)"
            return text.contains("requires '\(argument)'") && text.contains(said) && text.contains("make '\(argument)' optional")
        }
    }
}
