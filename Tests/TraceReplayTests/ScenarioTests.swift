import Foundation
import OnCueClient
import Testing

@testable import TraceReplay

/// Scenario files and strategy specs: overrides, and refusals of what the replay cannot use.
@Suite struct ScenarioTests {
    @Test func overridesApplyOverTheProfile() throws {
        let s = try Scenario.load(json: Data(#"{"profile": "android", "os": {"entry_overlap": 0.75}, "seed": 7}"#.utf8))
        #expect(s.profile == "android" && s.os.entryOverlap == 0.75 && s.os.maxRegions == 100 && s.seed == 7)
        #expect(!s.os.significantChange && s.os.periodicWakeSeconds > 0, "Android has no significant-change wake-ups")
        let sources = try Scenario.load(
            json: Data(#"{"fixes": {"sources": [{"name": "gps", "weight": 1, "accuracy_min_meters": 5, "accuracy_max_meters": 9}]}}"#.utf8))
        #expect(sources.fixes.sources.count == 1 && !sources.fixes.sources[0].recorded, "recorded defaults to false")
    }

    @Test(arguments: [
        #"{"os": {"max_region": 5}}"#, #"{"os": {"dwell_seconds": -1}}"#, #"{"app": {"cooldown_scope": "galaxy"}}"#,
        #"{"app": {"gps_stay_evidence": "forever"}}"#,
        #"{"app": {"gps_rest_while_staying_seconds": -5}}"#,
        #"{"app": {"staged_slots": 20}}"#, #"{"os": {"detection": "psychic"}}"#, #"{"os": {"entry_overlap": 1.5}}"#,
        #"{"fixes": {"sources": []}}"#, #"{"strategies": ["guaranteed@0"]}"#, #"{"profile": "windows-phone"}"#, #"[1, 2]"#,
        #"{"os": {"detection_delay_min_seconds": 9, "detection_delay_max_seconds": 3}}"#,
    ])
    func badScenariosAreRefused(json: String) {
        #expect(throws: ScenarioError.self) { try Scenario.load(json: Data(json.utf8)) }
    }

    @Test func strategySpecs() throws {
        let s = try Strategy.parse("staged+clamp@16")
        #expect(s.app.staged && s.app.clamp && s.app.maxRegions == 16 && s.role == .app)
        #expect(try Strategy.parse("oracle-os").role == .oracleOS)
        for bad in ["guaranteed@0", "guaranteed@101", "staged+fast", "oracle@5", "oracle+clamp", "", "@5", "teleport"] {
            #expect(throws: ScenarioError.self, "\(bad)") { try Strategy.parse(bad) }
        }
    }

    /// A recommendation file runs by name: its strategy, and its settings applied as `--set` applies them.
    @Test func recommendationFiles() throws {
        let text = #"""
            {"ios": {"strategy": "guaranteed+clamp+gps", "set": {"app.min_refresh_interval_seconds": 1800, "app.cooldown_scope": "location"}},
             "android": {"strategy": "staged+gps"}}
            """#
        let file = try Recommendation.load(json: Data(text.utf8))
        let (ios, strategy) = try file.apply(to: try Scenario.profile("ios"))
        #expect(strategy == "guaranteed+clamp+gps")
        #expect(ios.app.minRefreshIntervalSeconds == 1_800 && ios.app.cooldownScope == .location)
        let (android, other) = try file.apply(to: try Scenario.profile("android"))
        let androidDefaults = try Scenario.profile("android")
        #expect(other == "staged+gps" && android == androidDefaults)
        #expect(throws: ScenarioError.self) { try file.apply(to: try Scenario.profile("ideal")) }
        let bad = [
            #"{"nokia": {"strategy": "fixed"}}"#, #"{"ios": {"strategy": "oracle"}}"#, #"{"ios": {"strategy": "teleport"}}"#,
            #"{"ios": {"strategy": "fixed", "sett": {}}}"#, #"{"ios": {"strategy": "fixed", "set": {"app.no_such_key": 1}}}"#,
            #"{"ios": {"strategy": "fixed", "set": {"app.confirm_seconds": -5}}}"#,
            #"{"ios": {"strategy": "fixed", "set": {"app.confirm_seconds": [1]}}}"#,
            "[]", "not json",
        ]
        for b in bad {
            #expect(throws: ScenarioError.self, "\(b)") { try Recommendation.load(json: Data(b.utf8)).apply(to: try Scenario.profile("ios")) }
        }
        // --set: one key at a time, numbers and booleans typed, a bad value refused by the scenario's own checks.
        let set = try Recommendation.set(
            ["ground_truth.pay_after_seconds=300", "app.include_other_networks=true"].map(Recommendation.parseSetting),
            on: try Scenario.profile("ios"))
        #expect(set.groundTruth.payAfterSeconds == 300 && set.app.includeOtherNetworks)
        for b in ["=1", "app.confirm_seconds", "app.confirm_seconds="] {
            #expect(throws: ScenarioError.self, "\(b)") { try Recommendation.parseSetting(b) }
        }
        #expect(throws: ScenarioError.self) {
            try Recommendation.set([("ground_truth.pay_after_seconds", "-1")], on: try Scenario.profile("ios"))
        }
    }
}
