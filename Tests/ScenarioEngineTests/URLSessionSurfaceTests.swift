import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A stack's own URLSession beyond data tasks: cookies its answers set are kept and sent on,
    /// upload tasks carry their body, and a download task fails its run clearly instead of stopping
    /// the process (FoundationNetworking takes a download's answer only from its own HTTP loading).
    @Suite(.serialized) struct URLSessionSurfaceTests {
        struct Driver: ScenarioDriver {
            var name: String { "Surface" }
            var actions: [ActionSpec] {
                [
                    "loginThenFeed", "sharedLogin", "sharedFeed", "uploadData", "uploadFile", "download", "me", "meRefusingRedirects",
                    "postForm", "versioned", "versionedOverridden",
                ]
                .map { ActionSpec($0, $0) }
            }
            var givenKeys: [GivenSpec] { [] }

            func makeSession(_ context: DriverContext) async throws -> any DriverSession {
                // Headers every request of a session carries, as apps set a version or an API key.
                let versioned = context.urlSessionConfiguration()
                versioned.httpAdditionalHeaders = (versioned.httpAdditionalHeaders ?? [:]).merging(
                    ["X-App-Version": "1.2.3", "Accept-Language": "es"]
                ) { $1 }
                return Session(
                    session: URLSession(configuration: context.urlSessionConfiguration()),
                    refusing: URLSession(
                        configuration: context.urlSessionConfiguration(), delegate: RefusesRedirects(), delegateQueue: nil),
                    versioned: URLSession(configuration: versioned), base: context.baseURL)
            }
        }

        /// Hands every redirect answer on instead of following it, as a delegate may.
        final class RefusesRedirects: NSObject, URLSessionTaskDelegate, Sendable {
            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
            ) {
                completionHandler(nil)
            }
        }

        struct Session: DriverSession {
            let session: URLSession
            let refusing: URLSession
            let versioned: URLSession
            let base: URL

            private func request(_ method: String, _ path: String) -> URLRequest {
                var request = URLRequest(url: base.appendingPathComponent(path))
                request.httpMethod = method
                return request
            }

            private func status(_ load: () async throws -> (Any, URLResponse)) async -> ActionResult {
                do {
                    let (_, response) = try await load()
                    return .value(["status": .number(Double((response as? HTTPURLResponse)?.statusCode ?? 0))])
                } catch {
                    return .error(["code": .string("failed"), "urlError": .number(Double((error as? URLError)?.code.rawValue ?? 0))])
                }
            }

            func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
                switch action {
                case "loginThenFeed":
                    _ = try? await session.data(for: request("POST", "/login"))
                    return await status { try await session.data(for: request("GET", "/feed")) }
                case "sharedLogin":
                    return await status { try await URLSession.shared.data(for: request("POST", "/login")) }
                case "sharedFeed":
                    return await status { try await URLSession.shared.data(for: request("GET", "/feed")) }
                case "uploadData":
                    return await status { try await session.upload(for: request("PUT", "/profile"), from: Data(#"{"name":"Ada"}"#.utf8)) }
                case "uploadFile":
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString).txt")
                    try? Data("avatar bytes".utf8).write(to: file)
                    defer { try? FileManager.default.removeItem(at: file) }
                    return await status { try await session.upload(for: request("PUT", "/avatar"), fromFile: file) }
                case "me":
                    return await status { try await session.data(for: request("GET", "/me")) }
                case "meRefusingRedirects":
                    return await status { try await refusing.data(for: request("GET", "/me")) }
                case "versioned":
                    return await status { try await versioned.data(for: request("GET", "/me")) }
                case "versionedOverridden":
                    var own = request("GET", "/me")
                    own.setValue("en", forHTTPHeaderField: "Accept-Language")
                    return await status { try await versioned.data(for: own) }
                case "postForm":
                    var form = request("POST", "/form")
                    form.httpBody = Data("a=1".utf8)
                    return await status { try await session.data(for: form) }
                default:
                    return await status { try await session.download(for: request("GET", "/avatar")) }
                }
            }

            func snapshot() async -> JSONValue { [:] }
            func alerts() async -> [JSONValue] { [] }
            func timeline() async -> [JSONValue] { [] }
        }

        static let cookieExchanges: [Exchange] = {
            var login = Build.exchange("login", path: "/login", headers: ["Set-Cookie": "session=c00kie-s3ss10n-value; Path=/; HttpOnly"])
            login.request.method = .post
            var feed = Build.exchange("feed", path: "/feed")
            feed.request.headers = ["Cookie": "session=c00kie-s3ss10n-value"]
            return [login, feed]
        }()

        private func run(_ scenario: Scenario, route: RunPlan.Route = .direct) async -> ScenarioResult {
            await ScenarioRunner(driver: Driver(), plan: RunPlan(route: route)).run(scenario)
        }

        @Test(arguments: RunPlan.Route.allCases)
        func aCookieTheLoginSetIsSentWithTheNextRequest(route: RunPlan.Route) async {
            let scenario = Build.scenario(
                exchanges: Self.cookieExchanges,
                steps: [Build.step(.perform(Build.call("loginThenFeed"), parallel: 1, expect: .value(["status": 200])))])
            let result = await run(scenario, route: route)
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// Cookies the shared session's answers put in the shared storage go when the run ends.
        @Test func cookiesInTheSharedStorageDoNotOutliveTheRun() async {
            let login = Build.scenario(
                exchanges: Self.cookieExchanges,
                steps: [
                    Build.step(.perform(Build.call("sharedLogin"), parallel: 1, expect: .value(["status": 200]))),
                    Build.step(.perform(Build.call("sharedFeed"), parallel: 1, expect: .value(["status": 200]))),
                ])
            let first = await run(login)
            #expect(first.status == .passed, "\(first.explanation)")
            let url = URL(string: "https://api.example.com/feed")
            #expect((url.flatMap { HTTPCookieStorage.shared.cookies(for: $0) } ?? []).isEmpty)

            var feedAlone = Self.cookieExchanges[1]
            feedAlone.request.headers = [:]
            let next = await run(
                Build.scenario(exchanges: [feedAlone], steps: [Build.step(.perform(Build.call("sharedFeed"), parallel: 1, expect: .ok))]))
            #expect(next.status == .passed, "\(next.explanation)")
            #expect(!(next.transcript.first ?? "").contains("Cookie"), "\(next.transcript)")
        }

        @Test(arguments: RunPlan.Route.allCases)
        func uploadTasksCarryTheirBody(route: RunPlan.Route) async {
            var profile = Build.exchange("profile", path: "/profile")
            profile.request.method = .put
            profile.request.body = .jsonSubset(["name": "Ada"])
            var avatar = Build.exchange("avatar", path: "/avatar")
            avatar.request.method = .put
            avatar.request.body = .text("avatar bytes")
            let scenario = Build.scenario(
                exchanges: [profile, avatar],
                steps: [
                    Build.step(.perform(Build.call("uploadData"), parallel: 1, expect: .value(["status": 200]))),
                    Build.step(.perform(Build.call("uploadFile"), parallel: 1, expect: .value(["status": 200]))),
                ])
            let result = await run(scenario, route: route)
            #expect(result.status == .passed, "\(result.explanation)")
        }

        /// FoundationNetworking adds a configuration's headers in its own HTTP loading only: they
        /// are added here as it would, and a request's own value of a field wins.
        @Test(arguments: RunPlan.Route.allCases)
        func aSessionsAdditionalHeadersReachTheBackend(route: RunPlan.Route) async {
            var spanish = Build.exchange("me-es", path: "/me")
            spanish.request.headers = ["X-App-Version": "1.2.3", "Accept-Language": "es"]
            var english = Build.exchange("me-en", path: "/me")
            english.request.headers = ["X-App-Version": "1.2.3", "Accept-Language": "en"]
            let scenario = Build.scenario(
                exchanges: [spanish, english],
                steps: [
                    Build.step(.perform(Build.call("versioned"), parallel: 1, expect: .value(["status": 200]))),
                    Build.step(.perform(Build.call("versionedOverridden"), parallel: 1, expect: .value(["status": 200]))),
                ])
            let result = await run(scenario, route: route)
            #expect(result.status == .passed, "\(result.explanation)")
        }

        @Test func aDownloadTaskFailsItsRunSayingWhy() async {
            let scenario = Build.scenario(
                exchanges: [Build.exchange("avatar", path: "/avatar", optional: true)],
                steps: [Build.step(.perform(Build.call("download"), parallel: 1, expect: .ok))])
            let result = await run(scenario)
            #expect(result.status == .error)
            #expect(result.explanation.contains("escaped: GET /avatar is a download task"), "\(result.explanation)")
            #expect(!result.transcript.contains { $0.contains("#1") }, "no answer was served: \(result.transcript)")
        }

        static let redirected: [Exchange] = {
            let moved = Build.exchange("moved", path: "/me", status: 302, headers: ["Location": "/users/me"])
            return [moved, Build.exchange("me", path: "/users/me", json: ["id": "u1"], optional: true)]
        }()

        /// FoundationNetworking follows redirects only in its own HTTP loading: here the protocol
        /// follows them as it would, asking the session's delegate first.
        @Test(arguments: RunPlan.Route.allCases)
        func redirectsAreFollowedUnlessTheDelegateRefuses(route: RunPlan.Route) async {
            let followed = await run(
                Build.scenario(
                    exchanges: Self.redirected,
                    steps: [Build.step(.perform(Build.call("me"), parallel: 1, expect: .value(["status": 200])))]),
                route: route)
            #expect(followed.status == .passed, "\(followed.explanation)")
            #expect(followed.transcript.contains { $0.hasSuffix("#2 → GET /users/me") }, "\(followed.transcript)")
            // The answer line shows the headers that decide what the client does next.
            #expect(
                followed.transcript.contains { $0.hasSuffix("#1 ← 302 Found via moved  Location: /users/me") }, "\(followed.transcript)")

            let refused = await run(
                Build.scenario(
                    exchanges: Self.redirected,
                    steps: [Build.step(.perform(Build.call("meRefusingRedirects"), parallel: 1, expect: .value(["status": 302])))]),
                route: route)
            #expect(refused.status == .passed, "\(refused.explanation)")
            #expect(refused.transcript.count == 2, "\(refused.transcript)")
        }

        /// A 303 (and a 301 or 302 to a POST) leads to a GET without the body.
        @Test func aRedirectedPostIsSentOnAsAGet() async {
            var form = Build.exchange("form", path: "/form", status: 303, headers: ["Location": "https://api.example.com/done?x=1"])
            form.request.method = .post
            let result = await run(
                Build.scenario(
                    exchanges: [form, Build.exchange("done", path: "/done")],
                    steps: [Build.step(.perform(Build.call("postForm"), parallel: 1, expect: .value(["status": 200])))]))
            #expect(result.status == .passed, "\(result.explanation)")
            #expect(result.transcript.contains { $0.hasSuffix("#2 → GET /done?x=1") }, "\(result.transcript)")
        }

        /// What the record keeps (and `scenario export` writes) comes from the backend, so a stack
        /// that owns its URLSession (no transport seam to wrap) is recorded in full, answers and
        /// the order of sending and answering included.
        @Test func theRecordHoldsTheRequestsOfTheStacksOwnSession() async {
            let scenario = Build.scenario(
                exchanges: Self.cookieExchanges, steps: [Build.step(.perform(Build.call("loginThenFeed"), parallel: 1, expect: .ok))])
            let (result, record) = await ScenarioRunner(driver: Driver()).runReporting(scenario)
            let requests = record.requests
            #expect(result.status == .passed, "\(result.explanation)")
            #expect(
                requests.map { "\($0.request.method.rawValue) \($0.request.target) \($0.answer?.status ?? 0)" } == [
                    "POST /login 200", "GET /feed 200",
                ])
            // The feed was sent after the login's answer came: one at a time.
            #expect(requests.count == 2 && (requests[0].answer?.order ?? .max) < requests[1].order)
            #expect(requests.last?.request.headers["Cookie"] != nil)
        }
    }
#endif
