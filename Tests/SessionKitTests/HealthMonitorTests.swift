import HTTPCore
import Testing

@testable import SessionKit

@Suite("Health polling")
struct HealthMonitorTests {
    @Test("polls on the clock, stops in background, bursts on foreground")
    func lifecycle() async {
        let harness = await Harness()
        await harness.transport.on(.get, "/health", reply: .json(.ok, ["status": "ok"]))
        let health = harness.stack.health
        #expect(await health.status == .unknown)

        await health.startPolling()
        await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .seconds(15))
        await harness.clock.waitForSleepers(1)
        #expect(await harness.transport.requests.count == 1)
        #expect(await health.status == .healthy)

        await health.enterBackground()
        #expect(await health.isPolling == false)
        harness.clock.advance(by: .seconds(60))
        #expect(await harness.transport.requests.count == 1)

        await harness.connectivity.setOnline(false)
        await health.enterForeground()
        #expect(await health.status == .offline)  // checked at once, no request while offline
        #expect(await harness.transport.requests.count == 1)
        #expect(await health.isPolling)
        await health.stopPolling()
    }
}
