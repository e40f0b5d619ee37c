import Foundation
import Gazetteer
import Geo
import LocationStore
import TestSupport
import Testing

@testable import RegionRefresh

/// The density of the place around a store picks its radius tier, whatever the store holds.
@Suite("Place density and the radius tiers", .cpuHeavy)
struct PlaceDensityTests {
    /// The populated places as shipped in datasets/ (the embedded copy is generated from it).
    static func placesFile() throws -> [(lat: Double, lon: Double, population: Double)] {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: repo.appendingPathComponent("datasets/geonames-populated-places/places.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (Double(f[0])!, Double(f[1])!, Double(f[2])!)
        }
    }

    /// The formula of `PopulatedPlaces`, summed over every place by haversine distance: the oracle of the grid lookup.
    static func bruteForce(_ lat: Double, _ lon: Double, places: [(lat: Double, lon: Double, population: Double)]) -> Double {
        var total = 0.0
        for p in places {
            let central = 3_000 * pow(p.population / 100_000, 0.2)
            let s = max(1.7, (p.population / (.pi * central)).squareRoot())
            let d = Sphere.distance(lat1: lat, lon1: lon, lat2: p.lat, lon2: p.lon) / 1000
            guard d < 5 * s else { continue }
            let q = 1 + d * d / (s * s)
            total += p.population / (.pi * s * s) / (q * q)
        }
        return total
    }

    @Test("the places compiled into the binary are the ones in datasets/")
    func embeddedMatchesTheFile() throws {
        let file = try Self.placesFile()
        #expect(PopulatedPlaces.shared.count == file.count)
        #expect(PopulatedPlaces.shared.totalPopulation == Int(file.reduce(0) { $0 + $1.population }))
    }

    @Test("the grid lookup equals a brute-force sum over every place, worldwide, across the antimeridian and near the poles")
    func lookupMatchesBruteForce() throws {
        let places = try Self.placesFile()
        var points: [(Double, Double)] = [
            (40.7549, -73.9840), (39.9075, 116.3972), (60.1699, 24.9384), (21.3069, -157.8583),
            (-16.78, 179.99), (-16.78, -179.99), (64.8378, -147.7164), (78.2232, 15.6267),
            (-77.846, 166.676), (89.9, 0), (-89.9, 45), (-54.8, -68.3), (51.5074, -0.1278),
        ]
        var rng = SeededRandom(seed: 18)
        for _ in 0..<60 { points.append((Double.random(in: -70...75, using: &rng), Double.random(in: -180..<180, using: &rng))) }
        // Points near a random place, where the sum has many terms.
        for _ in 0..<60 {
            let p = places[Int.random(in: 0..<places.count, using: &rng)]
            points.append((min(89.9, max(-89.9, p.lat + .random(in: -0.2...0.2, using: &rng))), p.lon))
        }
        for (lat, lon) in points {
            let want = Self.bruteForce(lat, lon, places: places)
            let got = PopulatedPlaces.shared.density(latitude: lat, longitude: lon)
            // Chords for arcs and 1e-4° coordinates: well under a part in a thousand.
            #expect(abs(got - want) <= 1e-3 * want + 1e-6, "at (\(lat), \(lon)): \(got) against \(want)")
        }
        // The antimeridian is not an edge: the two sides of it agree.
        let east = PopulatedPlaces.shared.density(latitude: -16.5, longitude: 179.999)
        let west = PopulatedPlaces.shared.density(latitude: -16.5, longitude: -179.999)
        #expect(abs(east - west) <= 1e-3 * max(east, 1))
    }

    /// A probe store at each named place, beside whatever else the store holds.
    static let named: [(name: String, lat: Double, lon: Double, tier: RadiusPolicy.Rule)] = [
        ("midtown-manhattan", 40.7549, -73.9840, .dense), ("downtown-chicago", 41.8827, -87.6233, .dense),
        ("central-beijing", 39.9075, 116.3972, .dense), ("helsinki-centre", 60.1699, 24.9384, .dense),
        ("naperville", 41.7508, -88.1535, .suburban), ("naperville-costco", 41.7453282, -88.2033574, .suburban),
        ("versailles", 48.8014, 2.1301, .suburban), ("rural-iowa", 42.5, -94.5, .rural), ("rural-kansas", 38.5, -99.0, .rural),
        ("longyearbyen", 78.2232, 15.6267, .rural), ("fiji-antimeridian", -16.8, 179.9, .rural),
    ]

    static func probes() -> [Location] {
        named.map {
            Location(networkId: "probe", externalId: $0.name, name: $0.name, coordinate: Coordinate(uncheckedLatitude: $0.lat, longitude: $0.lon))
        }
    }

    static func radii(_ index: LocationIndex) -> [String: (Double, RadiusPolicy.Rule)] {
        var out: [String: (Double, RadiusPolicy.Rule)] = [:]
        for i in 0..<index.count where index.id(i).hasPrefix("loc_probe_") {
            out[String(index.id(i).dropFirst("loc_probe_".count))] = (Double(index.radius[i]), index.rule[i])
        }
        return out
    }

    @Test(
        "named places: city centres ≤ 100 m, suburbs 100–300 m, the countryside ≥ 300 m, with the shared chains or one chain",
        .needsSharedDatasets)
    func namedPlaces() throws {
        let (chains, networks) = try realChainLocations()
        let probe = Network(id: "probe", name: "Probe")
        let everything = LocationIndex.build(locations: chains + Self.probes(), networks: networks + [probe])
        let costcoOnly = LocationIndex.build(
            locations: chains.filter { $0.networkId == "costco" } + Self.probes(),
            networks: [Network(id: "costco", name: "Costco"), probe])
        let policy = RadiusPolicy.standard
        let full = Self.radii(everything)
        let single = Self.radii(costcoOnly)
        for place in Self.named {
            for (store, radii) in [("shared chains", full), ("Costco only", single)] {
                let (radius, rule) = try #require(radii[place.name])
                #expect(rule == place.tier, "\(place.name) with \(store): \(rule.name), \(radius) m")
                switch place.tier {
                case .dense: #expect(radius <= 100 && policy.dense.contains(radius), "\(place.name): \(radius) m")
                case .suburban: #expect(policy.suburban.contains(radius), "\(place.name): \(radius) m")
                default: #expect(radius >= 300 && policy.rural.contains(radius), "\(place.name): \(radius) m")
                }
            }
            // The store's contents move a radius within its tier only.
            #expect(full[place.name]?.1 == single[place.name]?.1)
            #expect((full[place.name]?.0 ?? 0) <= (single[place.name]?.0 ?? 0), "more stores around never widen a region")
        }
    }

    @Test("tiers follow the place density; neighbours shrink a radius within its tier, never across it")
    func policyArithmetic() {
        let p = RadiusPolicy.standard
        func r(_ density: Double, _ neighbours: Int = 0) -> (meters: Double, rule: RadiusPolicy.Rule) {
            p.radius(explicit: nil, networkDefault: nil, isLargeArea: false, venueRadius: nil, placeDensity: density, neighbors: neighbours)
        }
        #expect(r(0) == (500, .rural))
        #expect(r(p.suburbanMinPeoplePerKm2) == (300, .suburban))
        #expect(r(p.denseMinPeoplePerKm2) == (100, .dense))
        #expect(r(p.denseSaturationPeoplePerKm2) == (30, .dense) && r(1e6) == (30, .dense))
        // Halfway through a tier on a log scale is halfway through its radii.
        let mid = (p.suburbanMinPeoplePerKm2 * p.denseMinPeoplePerKm2).squareRoot()
        #expect(abs(r(mid).meters - 200) < 1e-9)
        // A full street of shops takes 30 % of the tier's range, and cannot leave the tier.
        #expect(abs(r(mid, 1_000).meters - (200 - 0.3 * 200)) < 1e-9 && r(mid, 1_000).rule == .suburban)
        #expect(r(p.denseMinPeoplePerKm2 - 1, 1_000).meters >= p.suburban.lowerBound)
        #expect(r(p.suburbanMinPeoplePerKm2 - 1, 1_000).meters >= p.rural.lowerBound)
    }
}
