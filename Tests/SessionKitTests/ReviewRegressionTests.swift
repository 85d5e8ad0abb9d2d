import Foundation
import HTTPCore
import Testing

@testable import SessionKit

/// Behaviour that a code review found wrong once, pinned so it stays right.
@Suite("Review regressions")
struct ReviewRegressionTests {
    @Test("a cancelled health check is no answer: the last known status stays")
    func cancelledCheckKeepsStatus() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", times: 1, reply: .json(.ok, ["status": "ok"]))
        await harness.transport.on(.get, "/health", reply: .failure(.cancelled))
        #expect(await harness.stack.health.check() == .healthy)
        #expect(await harness.stack.health.check() == .healthy)
        #expect(await harness.stack.health.status == .healthy)
    }

    @Test("confirming sign-out dismisses the confirmation, not an older alert")
    func confirmDismissesTheConfirmation() async {
        let harness = await Harness()
        await harness.transport.on(.post, "/auth/logout", reply: .response(HTTPResponse(status: .noContent)))
        let blockedEarlier = SessionAlert.accountBlocked
        await harness.stack.alerts.emit(blockedEarlier)
        await harness.stack.verification.requestSignOut()
        await harness.stack.verification.confirmSignOut()
        #expect(await harness.stack.alerts.pending() == [blockedEarlier])
        #expect(await harness.stack.auth.state == .unauthenticated)
    }

    @Test("confirming without a showing confirmation signs nobody out")
    func confirmWithoutRequestDoesNothing() async {
        let harness = await Harness()
        await harness.stack.verification.confirmSignOut()
        #expect(await harness.transport.requests.isEmpty)
        #expect(await harness.stack.snapshot().tokens.hasAccessToken)
    }

    @Test(
        "the message is errors[0].message; a blank or missing one falls back",
        arguments: [
            (#"{"errors":[{"field":"a"},{"message":"second"}]}"#, nil as String?),
            (#"{"errors":[{"message":"  "}]}"#, nil),
            (#"{"errors":[{"message":"first"},{"message":"second"}]}"#, "first"),
        ])
    func firstMessageIsTheFirstEntrys(body: String, expected: String?) {
        #expect(ErrorEnvelope(body: JSONValue.decode(Data(body.utf8))).firstMessage == expected)
    }

    @Test("a zero poll interval is raised to the minimum, so polling lets time pass")
    func pollIntervalHasAFloor() async {
        let environment = SessionEnvironment(
            transport: FakeTransport(), clock: ManualClock(), now: { Date(timeIntervalSince1970: 0) }, healthPollInterval: .zero)
        #expect(environment.healthPollInterval == SessionEnvironment.minimumHealthPollInterval)
    }
}
