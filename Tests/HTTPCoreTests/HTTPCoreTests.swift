import Foundation
import Testing

@testable import HTTPCore

@Suite struct HTTPFieldsTests {
    @Test func lookupIgnoresCase() {
        let fields: HTTPFields = ["Retry-After": "120"]
        #expect(fields["retry-after"] == "120")
        #expect(fields["RETRY-AFTER"] == "120")
        #expect(fields["Date"] == nil)
    }

    @Test func settingReplacesEverySpellingAndKeepsPosition() {
        var fields: HTTPFields = ["A": "1", "authorization": "old", "B": "2"]
        fields["Authorization"] = "new"
        #expect(fields.map(\.name) == ["A", "Authorization", "B"])
        #expect(fields.values(for: "AUTHORIZATION") == ["new"])
        fields["authorization"] = nil
        #expect(!fields.contains("Authorization"))
        #expect(fields.count == 2)
    }

    @Test func equalityIgnoresNameCase() {
        #expect(HTTPFields(dictionaryLiteral: ("X-A", "1")) == HTTPFields(dictionaryLiteral: ("x-a", "1")))
        #expect(HTTPFields(dictionaryLiteral: ("X-A", "1")) != HTTPFields(dictionaryLiteral: ("x-a", "2")))
    }
}

@Suite struct HTTPStatusTests {
    @Test(arguments: [
        (200, HTTPStatus.Kind.successful), (204, .successful), (301, .redirection),
        (403, .clientError), (429, .clientError), (503, .serverError), (99, .invalid), (600, .invalid),
    ])
    func kindFollowsFirstDigit(code: Int, kind: HTTPStatus.Kind) {
        #expect(HTTPStatus(code: code).kind == kind)
    }

    @Test func namedConstantsCarryTheirCodes() {
        #expect(HTTPStatus.tooManyRequests.code == 429)
        #expect(HTTPStatus.forbidden.code == 403)
        #expect(HTTPStatus.serviceUnavailable.description == "503 Service Unavailable")
    }
}

@Suite struct HTTPRequestTests {
    @Test func targetEncodesTheQuery() {
        let request = HTTPRequest(method: .get, path: "/users/search", query: [.init(name: "q", value: "a b&c")])
        #expect(request.target == "/users/search?q=a%20b%26c")
        #expect(HTTPRequest(method: .get, path: "/feed").target == "/feed")
    }

    @Test func methodsCompareUpperCased() {
        #expect(HTTPMethod(rawValue: "patch") == .patch)
    }

    @Test(arguments: [
        (URLError.Code.timedOut, TransportError.Code.timedOut),
        (.notConnectedToInternet, .notConnectedToInternet),
        (.networkConnectionLost, .networkConnectionLost),
        (.cancelled, .cancelled),
        (.cannotFindHost, .cannotConnectToHost),
        (.badURL, .other),
    ])
    func urlErrorsMapToTransportCodes(urlCode: URLError.Code, expected: TransportError.Code) {
        #expect(URLSessionTransport.code(for: urlCode) == expected)
    }
}
