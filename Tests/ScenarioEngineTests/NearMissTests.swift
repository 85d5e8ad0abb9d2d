import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// An unmatched request names the nearest exchanges and exactly what differs.
@Suite struct NearMissTests {
    private func exchange(
        _ id: String, method: HTTPMethod = .get, path: String = "/feed", query: [(String, String)] = [],
        headers: HTTPFields = [:], json: JSONValue? = nil, times: Int? = 1, after: [String] = []
    ) -> Exchange {
        Exchange(
            id: id,
            request: RequestMatcher(
                method: method, path: .exact(path), query: query.map { (name: $0.0, value: $0.1) }, headers: headers,
                body: json.map(BodyRule.jsonSubset)),
            reply: .response(HTTPResponse(status: .ok)), times: times, after: after, latency: .zero, release: nil, optional: true,
            location: Build.here)
    }

    private func near(_ request: HTTPRequest, _ exchanges: [Exchange], uses: [Int]? = nil) -> String {
        ScriptedBackend.nearMisses(MatchCandidate(request), exchanges: exchanges, uses: uses ?? exchanges.map { _ in 0 })
    }

    @Test func eachKindOfDifferenceIsNamed() {
        let request = HTTPRequest(
            method: .post, path: "/feed", query: [.init(name: "page", value: "3")], headers: ["Authorization": "Bearer old"],
            body: Data(#"{"email":"a@b.c","remember":false}"#.utf8))
        #expect(near(request, [exchange("m")]).contains("method: wants GET, got POST"))
        #expect(near(request, [exchange("p", method: .post, path: "/feeds")]).contains("path: wants /feeds, got /feed"))
        #expect(near(request, [exchange("q", method: .post, query: [("page", "2")])]).contains("query page: wants '2', got '3'"))
        #expect(
            near(request, [exchange("h", method: .post, headers: ["Authorization": "Bearer new"])])
                .contains("header Authorization: wants 'Bearer new', got 'Bearer old'"))
        let body = near(request, [exchange("j", method: .post, json: ["remember": true])])
        #expect(body.contains("JSON body at $.remember"), "\(body)")
    }

    @Test func usedUpAndWaitingExchangesSaySo() {
        let request = HTTPRequest(method: .get, path: "/feed")
        #expect(near(request, [exchange("once", times: 1)], uses: [1]).contains("times used up (served 1 of 1)"))
        #expect(
            near(request, [exchange("login", path: "/login"), exchange("later", after: ["login"])])
                .contains("'later' (after: waits for 'login', not served yet)"))
    }

    @Test func theNearestComeFirstAndAtMostThree() {
        let request = HTTPRequest(method: .get, path: "/feed")
        let exchanges = [
            exchange("far", method: .post, path: "/x"), exchange("a", path: "/a"), exchange("b", path: "/b"),
            exchange("c", path: "/c"), exchange("d", path: "/d"),
        ]
        let text = near(request, exchanges)
        #expect(text.hasPrefix("; nearest: 'a'"), "\(text)")
        #expect(!text.contains("'far'"))
        #expect(!text.contains("'d'"))
    }
}
