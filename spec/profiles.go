package spec

import "slices"

// Profile is one profile of the spec: the requirements of one version of
// upstream's documents, certified against one upstream release.
type Profile struct {
	// Name is the profile as a requirement's Since and a case's since name
	// it: "1.1".
	Name string
	// Release is the upstream release the profile is certified against,
	// whose behaviour its clarifications record: "1.1.0".
	Release string
	// Inherits names the profile whose requirements this one includes
	// besides its own; empty for the first profile.
	Inherits string
}

// ProfileTable lists the profiles, oldest first, each inheriting the one
// before it. It is the one list of profiles: Profiles, InProfile, the
// generated index and the case loader all follow it.
var ProfileTable = []Profile{
	{Name: "1.0", Release: "1.0.0"},
	{Name: "1.1", Release: "1.1.0", Inherits: "1.0"},
	{Name: "1.1.1", Release: "1.1.1", Inherits: "1.1"},
}

// Profiles lists the names of ProfileTable, oldest first. A profile
// includes the requirements introduced in it and in every profile it
// inherits.
var Profiles = profileNames()

func profileNames() []string {
	out := make([]string, len(ProfileTable))
	for i, p := range ProfileTable {
		out[i] = p.Name
	}
	return out
}

// LookupProfile returns the profile of the given name.
func LookupProfile(name string) (Profile, bool) {
	i := slices.IndexFunc(ProfileTable, func(p Profile) bool { return p.Name == name })
	if i < 0 {
		return Profile{}, false
	}
	return ProfileTable[i], true
}

// Includes reports whether profile holds the requirements introduced in
// since: since is profile itself or one profile profile inherits, directly
// or through others. It reports false when either is no profile.
func Includes(profile, since string) bool {
	if _, ok := LookupProfile(since); !ok {
		return false
	}
	for seen := 0; profile != "" && seen <= len(ProfileTable); seen++ {
		p, ok := LookupProfile(profile)
		if !ok {
			return false
		}
		if p.Name == since {
			return true
		}
		profile = p.Inherits
	}
	return false
}
