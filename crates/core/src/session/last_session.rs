//! Which session an event is of, found without reading its label most of the time: an
//! importer shares one label (`Arc<str>`) among a session's events, and logs interleave a few
//! sessions line by line, so the next event's label is most often the very pointer the last
//! one had. (Reading the label would touch memory another thread may just have written.)

use std::sync::Arc;

#[derive(Default)]
pub(crate) struct LastSession {
    index: usize,
    label: Option<Arc<str>>,
}

impl LastSession {
    /// The index of the session labelled `session`: the last one's when the label is the same
    /// pointer, else what `find` says (looking it up, or adding it).
    pub(crate) fn index(
        &mut self,
        session: &Option<Arc<str>>,
        find: impl FnOnce(Option<&str>) -> usize,
    ) -> usize {
        if let (Some(a), Some(b)) = (session, &self.label)
            && Arc::ptr_eq(a, b)
        {
            return self.index;
        }
        self.index = find(session.as_deref());
        self.label.clone_from(session);
        self.index
    }
}
