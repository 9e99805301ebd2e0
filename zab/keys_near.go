package zab

// nearKey returns the known key that k most likely misspells: one at most
// two edits away (insert, delete, replace, or swap two neighbours), or one
// edit for keys of four letters or fewer, where two edits reach unrelated
// words. Case is compared as written: a key that differs only in case is
// caught before.
func nearKey(k string, known []string) (string, bool) {
	best, bestD := "", 3
	for _, w := range known {
		limit := 2
		if min(len(k), len(w)) <= 4 {
			limit = 1
		}
		if d := editDistance(k, w); d <= limit && d < bestD {
			best, bestD = w, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance of a and b (bytes):
// Levenshtein plus the swap of two adjacent characters, the commonest typo.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
