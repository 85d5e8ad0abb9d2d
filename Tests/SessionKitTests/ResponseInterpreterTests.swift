import Foundation
import HTTPCore
import Testing

@testable import SessionKit

@Suite("Status-first error mapping")
struct ResponseInterpreterTests {
    let interpreter = ResponseInterpreter(now: { Date(timeIntervalSince1970: 1_800_000_000) })

    private func response(_ status: HTTPStatus, _ body: String = "", headers: HTTPFields = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    /// Bodies that carry nothing usable: every status must still map by itself.
    static let unusableBodies = ["", "<html>Bad Gateway</html>", "[1,2]", "{\"errors\":\"nope\"}", "{\"error_code\":5}", "null"]

    @Test("failures map by status whatever the body", arguments: unusableBodies)
    func statusWins(body: String) {
        let table: [(HTTPStatus, APIError)] = [
            (.badRequest, .badRequest(message: "Invalid request")),
            (.notFound, .notFound),
            (.unprocessableContent, .validationFailed([])),
            (.tooManyRequests, .rateLimited(message: "Demasiados intentos. Intenta de nuevo más tarde.", retryAfter: nil)),
            (.internalServerError, .serverError(status: 500)),
            (.badGateway, .serverError(status: 502)),
            (.serviceUnavailable, .serviceUnavailable(retryAfter: nil)),
            (.conflict, .unexpectedStatus(409)),
            (.unauthorized, .unauthorized),
            (.forbidden, .forbidden),
        ]
        for (status, expected) in table {
            #expect(
                interpreter.interpret(response(status, body), authenticated: false) == .failure(expected),
                "status \(status.code)")
        }
    }

    @Test("2xx passes the body on, empty or not")
    func success() {
        #expect(interpreter.interpret(response(.noContent), authenticated: true) == .success(nil))
        #expect(
            interpreter.interpret(response(.ok, #"{"success":true,"data":{"id":"u1"}}"#), authenticated: true)
                == .success(["success": true, "data": ["id": "u1"]]))
        #expect(interpreter.interpret(response(.ok, "not json"), authenticated: true) == .success(nil))
    }

    @Test(
        "401 on an authenticated call",
        arguments: [
            (#"{"error_code":"TOKEN_EXPIRED"}"#, ResponseInterpreter.Verdict.refreshableUnauthorized),
            ("", .refreshableUnauthorized),
            ("gateway says no", .refreshableUnauthorized),
            (#"{"error_code":"TOKEN_INVALID"}"#, .invalidToken),
        ])
    func unauthorizedAuthenticated(body: String, verdict: ResponseInterpreter.Verdict) {
        #expect(interpreter.interpret(response(.unauthorized, body), authenticated: true) == verdict)
    }

    @Test(
        "403 on an authenticated call",
        arguments: [
            (#"{"error_code":"USER_BLOCKED"}"#, ResponseInterpreter.Verdict.blocked),
            ("", .blocked),
            (#"{"error_code":"USER_INACTIVE"}"#, .accountUnusable(.accountInactive)),
            (#"{"error_code":"USER_DELETED"}"#, .accountUnusable(.accountDeleted)),
        ])
    func forbiddenAuthenticated(body: String, verdict: ResponseInterpreter.Verdict) {
        #expect(interpreter.interpret(response(.forbidden, body), authenticated: true) == verdict)
    }

    @Test("429 carries the server message and Retry-After")
    func rateLimited() {
        let body = #"{"success":false,"error_code":"RATE_LIMITED","errors":[{"message":"Espera un poco"}]}"#
        let verdict = interpreter.interpret(
            response(.tooManyRequests, body, headers: ["retry-after": "120"]), authenticated: false)
        #expect(verdict == .failure(.rateLimited(message: "Espera un poco", retryAfter: .seconds(120))))
    }

    @Test("422 and 400 VALIDATION_FAILED keep the field errors")
    func validation() {
        let body = #"{"error_code":"VALIDATION_FAILED","errors":[{"field":"email","message":"taken"},{"message":"weak"},{"field":"x"}]}"#
        let expected = APIError.validationFailed([FieldError(field: "email", message: "taken"), FieldError(message: "weak")])
        #expect(interpreter.interpret(response(.unprocessableContent, body), authenticated: false) == .failure(expected))
        #expect(interpreter.interpret(response(.badRequest, body), authenticated: false) == .failure(expected))
    }

    @Test("400 without a code keeps the first message")
    func badRequestMessage() {
        let body = #"{"errors":[{"message":"Phone is malformed"}]}"#
        #expect(
            interpreter.interpret(response(.badRequest, body), authenticated: false)
                == .failure(.badRequest(message: "Phone is malformed")))
    }

    @Test("every error has a distinct lowerCamel code and a description")
    func codes() {
        let errors: [APIError] = [
            .forbidden, .rateLimited(message: "m", retryAfter: nil), .serviceUnavailable(retryAfter: nil), .unauthorized,
            .tokenInvalid, .sessionExpired, .accountInactive, .accountDeleted, .validationFailed([]), .notFound,
            .badRequest(message: "m"), .serverError(status: 500), .unexpectedStatus(409), .undecodableBody,
            .transport(.timedOut), .notAuthenticated, .offline, .cannotBlockSelf, .verificationNotStarted, .storageFailed,
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors {
            #expect(error.code.first?.isLowercase == true && !error.code.contains("_"))
            #expect(!error.description.isEmpty)
        }
        #expect(APIError.transport(.timedOut).description.contains("timedOut"))
    }
}
