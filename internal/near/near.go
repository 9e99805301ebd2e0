package near

// Word returns the word of known that w most likely misspells: one at
// most two edits away (insert, delete, replace, or swap two neighbours),
// or one edit for words of four letters or fewer, where two edits reach
// unrelated words. Case is compared as written.
func Word(w string, known []string) (string, bool) {
	best, bestD := "", 3
	for _, k := range known {
		limit := 2
		if min(len(w), len(k)) <= 4 {
			limit = 1
		}
		if d := Distance(w, k); d <= limit && d < bestD {
			best, bestD = k, d
		}
	}
	return best, best != ""
}

// Distance is the optimal string alignment distance of a and b (bytes):
// Levenshtein plus the swap of two adjacent characters, the commonest typo.
func Distance(a, b string) int {
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
