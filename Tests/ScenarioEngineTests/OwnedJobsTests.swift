import Foundation
import Testing

@testable import ScenarioEngine

/// A scenario knows its jobs again by address and task: beside other tests, a task that ended
/// leaves its address to the next allocation, often another test's task, which must not become
/// the scenario's (it would run on the scenario's thread and count as work that escaped).
@Suite struct OwnedJobsTests {
    private let scheduler = ScenarioScheduler(clock: VirtualClock(start: Date(timeIntervalSince1970: 0)), order: JobOrder(.fifo, length: 0))
    /// An address the jobs below share; never read.
    private let buffer = UnsafeRawPointer(Self.storage)
    nonisolated(unsafe) private static let storage = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)

    @Test func aJobAtAKnownAddressButOfAnotherTaskIsNoScenarios() {
        var owned = OwnedJobs()
        owned.remember(JobIdentity(address: buffer, task: 41), for: scheduler)
        #expect(owned.owner(of: JobIdentity(address: buffer, task: 57)) == nil)
        // The stale address is forgotten: not even the first task is known there any more.
        #expect(owned.owner(of: JobIdentity(address: buffer, task: 41)) == nil)
    }

    @Test func theSameTaskIsKnownAgainAndItsAwaitedResumeCountsOnce() {
        var owned = OwnedJobs()
        let task = JobIdentity(address: buffer, task: 41)
        owned.awaitResume(of: task, for: scheduler)
        let first = owned.owner(of: task)
        #expect(first?.scheduler === scheduler && first?.awaited == true)
        let second = owned.owner(of: task)
        #expect(second?.scheduler === scheduler && second?.awaited == false)
    }

    @Test func anAwaitedTaskWhoseAddressWentToAnotherIsNotAwaited() {
        var owned = OwnedJobs()
        owned.awaitResume(of: JobIdentity(address: buffer, task: 41), for: scheduler)
        #expect(owned.owner(of: JobIdentity(address: buffer, task: 57)) == nil)
        owned.remember(JobIdentity(address: buffer, task: 57), for: scheduler)
        #expect(owned.owner(of: JobIdentity(address: buffer, task: 57))?.awaited == false)
    }

    @Test func anEndedRunsJobsAreForgotten() {
        var owned = OwnedJobs()
        owned.awaitResume(of: JobIdentity(address: buffer, task: 41), for: scheduler)
        owned.forget(scheduler)
        #expect(owned.owner(of: JobIdentity(address: buffer, task: 41)) == nil)
    }
}
