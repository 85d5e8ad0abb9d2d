import Foundation
import HTTPCore
import ScenarioKit
import SessionKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionRecorder`: an app that owns its URLSession adds one line to its configuration, its
/// requests still go over the network (a loopback server here), and what it records is HAR that
/// the built `scenario import` turns into a scenario that runs. They run beside the scenario
/// tests of the same process, as a team's own network tests would.
@Suite struct URLSessionRecorderTests {
    /// A session of the kind an app builds, with the recorder as the one added line.
    static func appSession(
        recording recorder: URLSessionRecorder, headers: [String: String] = [:]
    ) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = headers
        recorder.install(in: configuration)
        return URLSession(configuration: configuration)
    }

    // MARK: The whole way: record, import, run

    static let password = "hunter2-Recorded!9"
    static let oldAccess = "acc-rec-7Hq2Lm9Xw4Tb"
    static let newAccess = "acc-rec-3Pz8Kd1Vn6Yc"
    static let oldRefresh = "ref-rec-Qa71ZxWe5R"
    static let newRefresh = "ref-rec-Mn52BvLo8U"

    /// The backend contract's answers for a sign-in, an expired token and its refresh.
    static func contractBackend(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        let bearer = request.header("Authorization")
        switch (request.method, request.path) {
        case ("POST", "/auth/login") where request.json?["password"] as? String == password:
            return .json(
                200,
                #"{"success":true,"data":{"access_token":"\#(oldAccess)","refresh_token":"\#(oldRefresh)","expires_in":3600,"#
                    + #""user":{"id":"u-1","name":"Ana","email":"ana@example.com","active":true,"is_deleted":false}}}"#)
        case ("GET", "/users/me/blocked") where bearer != nil:
            return .json(200, #"{"success":true,"data":{"blocked":[]}}"#)
        case ("GET", "/feed") where bearer == "Bearer \(oldAccess)":
            return .json(401, #"{"success":false,"error_code":"TOKEN_EXPIRED"}"#)
        case ("POST", "/auth/refresh") where request.json?["refresh_token"] as? String == oldRefresh:
            return .json(
                200, #"{"success":true,"data":{"access_token":"\#(newAccess)","refresh_token":"\#(newRefresh)","expires_in":3600}}"#)
        case ("GET", "/feed") where bearer == "Bearer \(newAccess)":
            return .json(200, #"{"success":true,"data":{"posts":[{"id":"p-1","author_id":"u-7","text":"Bom dia"}]}}"#)
        default:
            return .json(404, #"{"success":false,"error_code":"NOT_FOUND"}"#)
        }
    }

    /// SessionKit built as an app builds it, over its own URLSession, records a sign-in and a
    /// refreshed call; `scenario import` turns the HAR into a scenario and `scenario run` passes it.
    @Test func anAppThatOwnsItsURLSessionRecordsAHARThatImportsAndRuns() async throws {
        let backend = try LoopbackServer(Self.contractBackend)
        let recorder = URLSessionRecorder()
        let transport = URLSessionHTTPTransport(baseURL: backend.url, session: Self.appSession(recording: recorder))
        let stack = await SessionStack(environment: SessionEnvironment(transport: transport, clock: ContinuousClock(), now: { Date() }))

        let user = try await stack.auth.login(email: "ana@example.com", password: Self.password)
        #expect(user.id == "u-1")
        let feed = try await stack.request(method: .get, path: "/feed")
        #expect(feed?["data"]?["posts"]?.arrayValue?.count == 1)
        // Everything really went over the socket, through the recorder's own session.
        let sent = backend.requests.map { "\($0.method) \($0.path)" }
        #expect(sent == ["POST /auth/login", "GET /users/me/blocked", "GET /feed", "POST /auth/refresh", "GET /feed"])
        #expect(recorder.log().entries.map { $0.response?.status } == [200, 200, 401, 200, 200])

        let folder = try TemporaryFolder()
        try recorder.writeHAR(to: folder.url.appendingPathComponent("recorded.har"))
        let imported = try ScenarioBinary.run(["import", "recorded.har", "-o", "recorded.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.stdout.contains("Imported 5 of 5 entries"), "\(imported.output)")
        let scenario = try folder.read("recorded.json")
        #expect(scenario.contains(#""do": "login""#), "\(scenario)")
        let run = try ScenarioBinary.run(["run", "recorded.json", "--no-reports"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")

        let everything = try folder.read("recorded.har") + imported.output + scenario + run.output
        let secrets = [Self.password, Self.oldAccess, Self.newAccess, Self.oldRefresh, Self.newRefresh]
        #expect(CanaryForms.leaks(of: secrets, in: everything).map(\.canary) == [])
    }

    // MARK: Bounds

    @Test func keepsTheLastNExchangesAndDropsTheOldest() async throws {
        let backend = try LoopbackServer { _ in .json(200, "{}") }
        let recorder = URLSessionRecorder(capacity: 3)
        let session = Self.appSession(recording: recorder)
        for index in 0..<5 {
            _ = try await session.data(from: backend.url.appendingPathComponent("n/\(index)"))
        }
        #expect(backend.requests.count == 5)
        let paths = recorder.log().entries.map { URLComponents(string: $0.request.url)?.path }
        #expect(paths == ["/n/2", "/n/3", "/n/4"])
        recorder.removeAll()
        #expect(recorder.log().entries.isEmpty)
        _ = try await session.data(from: backend.url.appendingPathComponent("after"))
        #expect(recorder.log().entries.map { URLComponents(string: $0.request.url)?.path } == ["/after"])
    }

    @Test func dropsTheOldestToStayUnderTheStoredBytes() async throws {
        let backend = try LoopbackServer { _ in LoopbackServer.Response(status: 200, body: Data(repeating: 0x61, count: 100)) }
        let recorder = URLSessionRecorder(capacity: 100, maximumStoredBytes: 250)
        let session = Self.appSession(recording: recorder)
        for index in 0..<5 {
            _ = try await session.data(from: backend.url.appendingPathComponent("n/\(index)"))
        }
        let paths = recorder.log().entries.map { URLComponents(string: $0.request.url)?.path }
        #expect(paths == ["/n/3", "/n/4"])
    }

    @Test func aBodyOverTheLimitReachesTheAppWholeAndIsRecordedCut() async throws {
        let big = Data((0..<10_000).map { UInt8(97 + $0 % 26) })
        let backend = try LoopbackServer { request in LoopbackServer.Response(status: 200, body: big + request.body) }
        let recorder = URLSessionRecorder(maximumBodySize: 64)
        var request = URLRequest(url: backend.url.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        request.httpBody = Data(String(repeating: "b", count: 1_000).utf8)
        let (data, _) = try await Self.appSession(recording: recorder).data(for: request)
        #expect(data.count == 11_000)
        let entry = try #require(recorder.log().entries.first)
        #expect(entry.request.body == String(repeating: "b", count: 64))
        #expect(entry.response?.body == big.prefix(64))
    }

    // MARK: Redaction

    @Test func theHARHoldsNoSecretByDefaultAndKeepsThemWhenAsked() async throws {
        var generator = SeededGenerator(seed: 20)
        let bearer = generator.canary("tok-", specials: "-_.")
        let apiKey = generator.canary("key-", specials: "+/=")
        let password = generator.canary("pw-", specials: "!\"&")
        let query = generator.canary("qt-", specials: "+/= ")
        let answered = generator.canary("at-", specials: "-_")
        let cookie = generator.canary("ck-")
        let backend = try LoopbackServer { _ in
            .json(200, #"{"access_token":"\#(answered)","user":{"id":"u-1"}}"#, headers: [("Set-Cookie", "sid=\(cookie); HttpOnly")])
        }
        let recorder = URLSessionRecorder()
        // The API key comes from the configuration, which protocols are not shown on every platform.
        let session = Self.appSession(recording: recorder, headers: ["X-API-Key": apiKey])
        var components = try #require(URLComponents(url: backend.url.appendingPathComponent("auth/login"), resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "reset_token", value: query)]
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = "POST"
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": "ana@example.com", "password": password])
        _ = try await session.data(for: request)

        let seen = try #require(backend.requests.first)
        #expect(seen.header("Authorization") == "Bearer \(bearer)")
        #expect(seen.header("X-API-Key") == apiKey)
        let canaries = [bearer, apiKey, password, query, answered, cookie]
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("shared.har")
        try recorder.writeHAR(to: file)
        let shared = try folder.read("shared.har")
        #expect(CanaryForms.leaks(of: canaries, in: shared).map(\.canary) == [])
        #expect(shared.contains("redacted-password-1"))
        // Still HAR that reads back, one entry with its answer.
        #expect(try HARReader(file: "shared.har").read(Data(shared.utf8)).entries.map { $0.response?.status } == [200])

        try recorder.writeHAR(to: file, redacted: false)
        let kept = try folder.read("shared.har")
        #expect(CanaryForms.leaks(of: canaries, in: kept).map(\.canary) == canaries)
        let body = try #require(recorder.log(redacted: false).entries.first?.request.body)
        #expect((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])?["password"] == password)
    }

    // MARK: Failures and the request's shape

    @Test func aRefusedConnectionIsRecordedWithoutAResponse() async throws {
        let recorder = URLSessionRecorder()
        let session = Self.appSession(recording: recorder)
        let refused = try #require(URL(string: "http://127.0.0.1:\(try LoopbackServer.refusedPort())/feed"))
        var failure: URLError?
        do {
            _ = try await session.data(from: refused)
        } catch {
            failure = error as? URLError
        }
        #expect(failure?.code == .cannotConnectToHost)
        // The session still works, and both are recorded in order.
        let backend = try LoopbackServer { _ in .json(200, "{}") }
        _ = try await session.data(from: backend.url.appendingPathComponent("health"))
        let entries = recorder.log().entries
        #expect(entries.map { $0.response?.status } == [nil, 200])
        #expect(entries.first?.request.url == refused.absoluteString)
        let read = try HARReader(file: "r.har").read(Data(recorder.log().harText().utf8))
        #expect(read.entries.first?.response == nil)
    }

    @Test func aStreamedBodyIsSentOnAndRecorded() async throws {
        let backend = try LoopbackServer { _ in .json(201, #"{"ok":true}"#) }
        let recorder = URLSessionRecorder()
        let body = #"{"name":"Ana","note":"sent as a stream"}"#
        var request = URLRequest(url: backend.url.appendingPathComponent("notes"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("\(body.utf8.count)", forHTTPHeaderField: "Content-Length")
        request.httpBodyStream = InputStream(data: Data(body.utf8))
        let (_, response) = try await Self.appSession(recording: recorder).data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(backend.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == body)
        let entry = try #require(recorder.log().entries.first)
        #expect(entry.request.body == body)
        #expect(entry.request.mimeType == "application/json")
        #expect(entry.response?.body == Data(#"{"ok":true}"#.utf8))
    }

    @Test func aRedirectIsFollowedAndRecordedHopByHop() async throws {
        let backend = try LoopbackServer { request in
            request.path == "/old"
                ? LoopbackServer.Response(status: 302, headers: [("Location", "/new")])
                : LoopbackServer.Response(status: 200, body: Data("here".utf8))
        }
        let recorder = URLSessionRecorder()
        let (data, response) = try await Self.appSession(recording: recorder).data(from: backend.url.appendingPathComponent("old"))
        #expect(String(decoding: data, as: UTF8.self) == "here")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let hops = recorder.log().entries.map { "\(URLComponents(string: $0.request.url)?.path ?? "") \($0.response?.status ?? 0)" }
        #expect(hops == ["/old 302", "/new 200"])
    }

    /// No URLProtocol is shown an upload task's body: Apple platforms send such a task on
    /// unrecorded; FoundationNetworking gives it to the protocol anyway, which fails it rather
    /// than send the request without its body.
    @Test func anUploadTaskIsNeverSentWithoutItsBody() async throws {
        let backend = try LoopbackServer { request in LoopbackServer.Response(status: 200, body: request.body) }
        let recorder = URLSessionRecorder()
        var request = URLRequest(url: backend.url.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        let body = Data("the upload".utf8)
        let session = Self.appSession(recording: recorder)
        #if canImport(FoundationNetworking)
            var failure: URLError?
            do {
                _ = try await session.upload(for: request, from: body)
            } catch {
                failure = error as? URLError
            }
            #expect(failure?.code == .unsupportedURL)
            #expect(backend.requests.isEmpty)
        #else
            let (data, _) = try await session.upload(for: request, from: body)
            #expect(data == body)
        #endif
        #expect(recorder.log().entries.isEmpty)
    }

    @Test func installingTwiceRecordsEachExchangeOnce() async throws {
        let backend = try LoopbackServer { _ in .json(200, "{}") }
        let first = URLSessionRecorder()
        let second = URLSessionRecorder()
        let configuration = URLSessionConfiguration.ephemeral
        first.install(in: configuration)
        second.install(in: configuration)
        _ = try await URLSession(configuration: configuration).data(from: backend.url.appendingPathComponent("once"))
        #expect(backend.requests.count == 1)
        #expect(first.log().entries.isEmpty)
        #expect(second.log().entries.count == 1)
    }
}
