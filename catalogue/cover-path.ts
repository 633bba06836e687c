// Its own module: pages in the browser ask it, and must not load the content loader for that.
export const coverPath = (slug: string) => `/covers/${slug}.svg`;

export const isGeneratedCover = (note: { slug: string; photo: string }) => note.photo === coverPath(note.slug);
