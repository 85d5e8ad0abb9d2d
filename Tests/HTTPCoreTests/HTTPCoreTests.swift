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
        #expect(URLSessionHTTPTransport.code(for: urlCode) == expected)
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport behind `URLSession.data(for:)`'s shape: what it was sent, and what it answers.
@Suite struct TransportDataForRequestTests {
    final class Recorder: HTTPTransport, @unchecked Sendable {
        let lock = NSLock()
        var sent: [HTTPRequest] = []
        let answer: Result<HTTPResponse, TransportError>
        init(_ answer: Result<HTTPResponse, TransportError>) { self.answer = answer }
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            lock.withLock { sent.append(request) }
            return try answer.get()
        }
    }

    @Test func aRequestGoesOutAsWrittenAndItsAnswerComesBackAsURLSessionGivesIt() async throws {
        var fields = HTTPFields()
        fields.append(name: "Set-Cookie", value: "a=1")
        fields.append(name: "Set-Cookie", value: "b=2")
        fields.append(name: "Retry-After", value: "30")
        let transport = Recorder(.success(HTTPResponse(status: HTTPStatus(code: 429), headers: fields, body: Data("slow".utf8))))
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/feed?page=2&q=a%20b")))
        request.httpMethod = "POST"
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"x":1}"#.utf8)

        let (data, response) = try await transport.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 429)
        #expect(http.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
        #expect(http.value(forHTTPHeaderField: "Retry-After") == "30")
        #expect(String(decoding: data, as: UTF8.self) == "slow")

        let sent = try #require(transport.sent.first)
        #expect(sent.method == .post)
        #expect(sent.path == "/v1/feed")
        #expect(sent.query.map { "\($0.name)=\($0.value ?? "")" } == ["page=2", "q=a b"])
        #expect(sent.headers.map(\.name) == ["Authorization", "Content-Type"])
        #expect(sent.body == Data(#"{"x":1}"#.utf8))
    }

    @Test(arguments: [
        (TransportError.Code.timedOut, URLError.Code.timedOut), (.cannotConnectToHost, .cannotConnectToHost),
        (.networkConnectionLost, .networkConnectionLost), (.other, .unknown),
    ])
    func aFailureIsTheURLErrorURLSessionWouldThrow(code: TransportError.Code, expected: URLError.Code) async throws {
        let transport = Recorder(.failure(TransportError(code)))
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/feed")))
        await #expect(throws: URLError(expected)) { try await transport.data(for: request) }
    }
}
