export { PostEditor } from './PostEditor';
export type { PostEditorProps } from './PostEditor';
export { usePostEditor, toLocalInput } from './usePostEditor';
export type { PostEditorState, UsePostEditorOptions, EditorMessage } from './usePostEditor';
