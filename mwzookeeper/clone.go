package mwzookeeper

import "slices"

// Clone returns a copy of r that shares no memory with it. The test suite
// hands a Service a copy and keeps the original: what the Service does to
// the Request it was given must not change what the suite expects of it.
func (r *Request) Clone() *Request {
	c := *r
	c.Data = cloneBytes(r.Data)
	c.ACL = slices.Clone(r.ACL)
	c.Auth = slices.Clone(r.Auth)
	c.Password = cloneBytes(r.Password)
	c.DataWatches = slices.Clone(r.DataWatches)
	c.ExistWatches = slices.Clone(r.ExistWatches)
	c.ChildWatches = slices.Clone(r.ChildWatches)
	c.PersistentWatches = slices.Clone(r.PersistentWatches)
	c.RecursiveWatches = slices.Clone(r.RecursiveWatches)
	if r.Ops != nil {
		c.Ops = make([]Op, len(r.Ops))
		for i, o := range r.Ops {
			o.Data, o.ACL = cloneBytes(o.Data), slices.Clone(o.ACL)
			c.Ops[i] = o
		}
	}
	return &c
}

// Clone returns a copy of r that shares no memory with it: the suite
// judges a reply by the copy it took when the reply came, whatever the
// Service does to the Response afterwards.
func (r *Response) Clone() *Response {
	c := *r
	c.Data = cloneBytes(r.Data)
	c.Children = slices.Clone(r.Children)
	c.ACL = slices.Clone(r.ACL)
	c.Identity = slices.Clone(r.Identity)
	c.Password = cloneBytes(r.Password)
	if r.Results != nil {
		c.Results = make([]OpResult, len(r.Results))
		for i, o := range r.Results {
			o.Data, o.Children = cloneBytes(o.Data), slices.Clone(o.Children)
			c.Results[i] = o
		}
	}
	return &c
}

// cloneBytes copies b, keeping nil and empty apart (a create with empty
// data differs from one with none only in what a test prints).
func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
